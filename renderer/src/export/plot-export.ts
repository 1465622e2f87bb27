// Figures to files: PNG and SVG straight from Plotly.toImage; PDF as a vector conversion of that
// SVG (svg2pdf.js draws it with jsPDF), so axis titles, tick labels and legends stay text.
import Plotly from 'plotly.js-dist-min';
import { jsPDF } from 'jspdf';
import { svg2pdf } from 'svg2pdf.js';
import { dataUrlToBytes, utf8Bytes } from './bytes';

export type ImageFormat = 'png' | 'svg' | 'pdf';

export const MIME: Record<ImageFormat, string> = { png: 'image/png', svg: 'image/svg+xml', pdf: 'application/pdf' };

export interface ImageSize {
  width: number;
  height: number;
  /** PNG only: pixel density (2 = twice the pixels for the same layout). */
  scale: number;
}

export interface Figure {
  data: Record<string, unknown>[];
  layout: Record<string, unknown>;
}

export async function figureToSvg(figure: Figure, size: ImageSize): Promise<string> {
  const url = await Plotly.toImage(figure, { format: 'svg', width: size.width, height: size.height });
  return new TextDecoder().decode(dataUrlToBytes(url).bytes);
}

/** Converts an SVG document to a one-page PDF of the same size (1 SVG px = 1 pt). */
export async function svgToPdf(svgText: string, width: number, height: number): Promise<Uint8Array> {
  // jsPDF's standard fonts are WinAnsi: Plotly's minus sign (U+2212) would print as a stray glyph.
  const svg = new DOMParser().parseFromString(svgText.replace(/\u2212/g, '-'), 'image/svg+xml').documentElement;
  if (svg.nodeName !== 'svg') throw new Error('the figure did not render to SVG');
  const doc = new jsPDF({ orientation: width >= height ? 'landscape' : 'portrait', unit: 'pt', format: [width, height], compress: true });
  // svg2pdf reads computed styles, so the SVG must be in the document while it converts.
  const holder = document.createElement('div');
  holder.setAttribute('aria-hidden', 'true');
  holder.style.cssText = 'position:absolute;left:-100000px;top:0;width:0;height:0;overflow:hidden';
  holder.appendChild(svg);
  document.body.appendChild(holder);
  try {
    await svg2pdf(svg, doc, { x: 0, y: 0, width, height });
  } finally {
    holder.remove();
  }
  return new Uint8Array(doc.output('arraybuffer'));
}

export async function exportFigure(figure: Figure, format: ImageFormat, size: ImageSize): Promise<Uint8Array> {
  if (format === 'png') {
    const url = await Plotly.toImage(figure, { format: 'png', width: size.width, height: size.height, scale: size.scale });
    return dataUrlToBytes(url).bytes;
  }
  const svg = await figureToSvg(figure, size);
  if (format === 'svg') return utf8Bytes(svg);
  return svgToPdf(svg, size.width, size.height);
}

/** An SVG document drawn onto a canvas as PNG at `scale` times its size (figures that are not plotly's). */
export async function svgToPng(svgText: string, size: ImageSize): Promise<Uint8Array> {
  const img = new Image();
  const url = URL.createObjectURL(new Blob([svgText], { type: MIME.svg }));
  try {
    img.src = url;
    await img.decode();
    const canvas = document.createElement('canvas');
    canvas.width = Math.round(size.width * size.scale);
    canvas.height = Math.round(size.height * size.scale);
    const ctx = canvas.getContext('2d');
    if (!ctx) throw new Error('no 2D canvas to draw the PNG on');
    ctx.drawImage(img, 0, 0, canvas.width, canvas.height);
    return dataUrlToBytes(canvas.toDataURL('image/png')).bytes;
  } finally {
    URL.revokeObjectURL(url);
  }
}

/** SVG, PDF or PNG bytes of a self-drawn SVG figure, at the requested size. */
export async function exportSvgFigure(svgAt: (width: number, height: number) => string, format: ImageFormat, size: ImageSize): Promise<Uint8Array> {
  const svg = svgAt(size.width, size.height);
  if (format === 'svg') return utf8Bytes(svg);
  if (format === 'pdf') return svgToPdf(svg, size.width, size.height);
  return svgToPng(svg, size);
}
