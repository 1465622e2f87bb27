// Parallel coordinates as an SVG figure (no WebGL), sized to its box, themed, with the same
// PNG/SVG/PDF export bar as the plotly figures (exports use the light, print theme).
import { useEffect, useMemo, useRef, useState } from 'react';
import { useApp } from '../stores/app-store';
import { PlotExportBar } from './export-bar';
import { exportSvgFigure } from '../export/plot-export';
import { parallelSvg, type ParallelAxis, type ParallelRow } from './parallel-coordinates';

export interface ParallelCoordinatesProps {
  /** What the plot shows: its heading, its accessible name and the export file name. */
  title: string;
  axes: ParallelAxis[];
  rows: ParallelRow[];
  /** The number axis that colours the lines (a metric). */
  colorBy?: string;
  /** Low values are best (errors): they are drawn brightest and on top. */
  lowIsBest?: boolean;
  height?: number;
  testId?: string;
}

export function ParallelCoordinates({ title, axes, rows, colorBy, lowIsBest = true, height = 340, testId }: ParallelCoordinatesProps) {
  const theme = useApp((s) => s.theme);
  const box = useRef<HTMLDivElement>(null);
  const [width, setWidth] = useState(800);
  useEffect(() => {
    const el = box.current;
    if (!el) return;
    const ro = new ResizeObserver(() => {
      if (el.clientWidth > 0) setWidth(el.clientWidth);
    });
    ro.observe(el);
    return () => ro.disconnect();
  }, []);
  const opts = { colorBy, lowIsBest, title };
  const svg = useMemo(() => parallelSvg(axes, rows, { ...opts, width: Math.max(300, width), height, theme }), [axes, rows, colorBy, lowIsBest, title, width, height, theme]);
  return (
    <figure className="plot" data-testid={testId}>
      {/* The SVG is built as text by parallelSvg (every value escaped) so the export is the same drawing. */}
      <div ref={box} role="img" aria-label={title} className="plot-area parallel-coordinates" style={{ height }} dangerouslySetInnerHTML={{ __html: svg }} />
      <PlotExportBar title={title} exporter={(format, size) => exportSvgFigure((w, h) => parallelSvg(axes, rows, { ...opts, width: w, height: h, theme: 'light' }), format, size)} />
    </figure>
  );
}
