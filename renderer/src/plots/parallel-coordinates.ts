// Parallel coordinates drawn as plain SVG (no WebGL: plotly's parcoords needs it and headless
// Chromium, remote desktops and many laptops have none). Pure: the layout and the SVG text come
// from one function, so the figure on screen and the exported SVG/PDF are the same drawing, and
// node:test can check it. Used by the Runs view's hyperparameters and by sweeps.
import { COLOR_SCALES, type ColorScale } from './colorscales';
import { PLOT_COLORS, type PlotTheme } from './theme';

export interface ParallelAxis {
  key: string;
  label: string;
  /** Numbers on a linear or log scale; text as evenly spaced categories in sorted order. */
  kind: 'number' | 'text';
  /** Force a scale; by default a positive axis spanning over two decades is logarithmic. */
  scale?: 'linear' | 'log';
}

export type ParallelRow = { id: string; name?: string } & Record<string, number | string | null | undefined>;

export interface ParallelOptions {
  width: number;
  height: number;
  theme: PlotTheme;
  /** The axis whose value colours each line (a number axis, typically the metric). */
  colorBy?: string;
  colorscale?: ColorScale;
  /** Low values are good (errors): draw them in the scale's bright end, on top. */
  lowIsBest?: boolean;
  title?: string;
}

export interface AxisLayout {
  key: string;
  label: string;
  x: number;
  scale: 'linear' | 'log' | 'category';
  /** text: what is drawn (a long category shortened with '…' to fit between axes); full: the whole value, as its tooltip. */
  ticks: { value: number | string; y: number; text: string; full?: string }[];
}

export interface ParallelLayout {
  axes: AxisLayout[];
  lines: { id: string; name: string; points: [number, number][]; color: string; value: number | null }[];
  colorRange: [number, number] | null;
}

// r: the colour bar and its labels ("5.91e-3" beside the bar was clipped at 90)
const MARGIN = { l: 60, r: 110, t: 56, b: 28 };
/** About how wide one character of the 11 px tick font is, to fit a category label between axes. */
const CHAR_PX = 6;

/** A category label cut to `max` characters with '…' (long dataset names ran across the neighbouring axes). */
export function fitLabel(text: string, max: number): string {
  const m = Math.max(4, Math.floor(max));
  return text.length <= m ? text : `${text.slice(0, m - 1).trimEnd()}…`;
}

/** Round tick values for [lo, hi]: 1, 2 or 5 times a power of ten, about `n` of them. */
export function niceTicks(lo: number, hi: number, n = 5): number[] {
  if (!(hi > lo)) return [lo];
  const raw = (hi - lo) / Math.max(1, n);
  const p = Math.pow(10, Math.floor(Math.log10(raw)));
  const r = raw / p;
  const step = (r < 1.5 ? 1 : r < 3 ? 2 : r < 7 ? 5 : 10) * p;
  const out: number[] = [];
  for (let v = Math.ceil(lo / step - 1e-9) * step; v <= hi + step * 1e-9; v += step) out.push(Number(v.toPrecision(12)));
  return out;
}

/** Short tick text: up to 3 significant digits, exponent form for very small or large numbers. */
export function tickText(v: number): string {
  if (v === 0) return '0';
  const a = Math.abs(v);
  if (a < 1e-3 || a >= 1e5) return Number(v.toPrecision(2)).toExponential().replace('e+', 'e');
  return String(Number(v.toPrecision(3)));
}

/** Interpolates a colour scale at t in [0, 1]. */
export function colorAt(scale: ColorScale, t: number): string {
  const u = Math.min(1, Math.max(0, Number.isFinite(t) ? t : 0));
  for (let i = 1; i < scale.length; i++) {
    const [p1, c1] = scale[i]!;
    const [p0, c0] = scale[i - 1]!;
    if (u <= p1) {
      const f = p1 === p0 ? 0 : (u - p0) / (p1 - p0);
      const a = parseInt(c0.slice(1), 16);
      const b = parseInt(c1.slice(1), 16);
      const ch = (s: number) => Math.round(((a >> s) & 255) * (1 - f) + ((b >> s) & 255) * f);
      return `#${((ch(16) << 16) | (ch(8) << 8) | ch(0)).toString(16).padStart(6, '0')}`;
    }
  }
  return scale[scale.length - 1]![1];
}

function axisScale(axis: ParallelAxis, values: (number | string)[], top: number, bottom: number): { layout: Omit<AxisLayout, 'x'>; y(v: number | string): number } {
  if (axis.kind === 'text') {
    const cats = [...new Set(values.map(String))].sort((a, b) => a.localeCompare(b));
    const y = (v: number | string) => (cats.length === 1 ? (top + bottom) / 2 : bottom - (cats.indexOf(String(v)) / (cats.length - 1)) * (bottom - top));
    return { layout: { key: axis.key, label: axis.label, scale: 'category', ticks: cats.map((c) => ({ value: c, y: y(c), text: c })) }, y };
  }
  const nums = values.map(Number);
  let lo = Math.min(...nums);
  let hi = Math.max(...nums);
  const log = axis.scale === 'log' || (axis.scale !== 'linear' && lo > 0 && hi / lo >= 100);
  if (log) {
    const l0 = Math.floor(Math.log10(lo) + 1e-9);
    const l1 = Math.ceil(Math.log10(hi) - 1e-9);
    const [a, b] = l1 > l0 ? [l0, l1] : [l0 - 0.5, l0 + 0.5];
    const y = (v: number | string) => bottom - ((Math.log10(Number(v)) - a) / (b - a)) * (bottom - top);
    const ticks = [];
    for (let e = Math.ceil(a); e <= b; e++) ticks.push({ value: 10 ** e, y: y(10 ** e), text: tickText(10 ** e) });
    return { layout: { key: axis.key, label: axis.label, scale: 'log', ticks }, y };
  }
  // A single value sits in the middle; otherwise the axis spans exactly the data (tight), ticks inside it.
  if (lo === hi) {
    const pad = lo === 0 ? 1 : Math.abs(lo) * 0.5;
    lo -= pad;
    hi += pad;
  }
  const y = (v: number | string) => bottom - ((Number(v) - lo) / (hi - lo)) * (bottom - top);
  const ticks = niceTicks(lo, hi, 4).filter((t) => t >= lo - 1e-12 && t <= hi + 1e-12).map((t) => ({ value: t, y: y(t), text: tickText(t) }));
  return { layout: { key: axis.key, label: axis.label, scale: 'linear', ticks }, y };
}

/**
 * Where everything goes. Axes on which some row has no value are left out (a FNO has no
 * scattering), as are rows without a value on the colour axis when one is given.
 */
export function parallelLayout(axes: ParallelAxis[], rows: ParallelRow[], o: ParallelOptions): ParallelLayout {
  const has = (r: ParallelRow, k: string) => r[k] != null && r[k] !== '' && (typeof r[k] !== 'number' || Number.isFinite(r[k]));
  const shown = o.colorBy ? rows.filter((r) => has(r, o.colorBy!)) : rows;
  const used = axes.filter((a) => shown.length > 0 && shown.every((r) => has(r, a.key)));
  const top = MARGIN.t;
  const bottom = o.height - MARGIN.b;
  const span = o.width - MARGIN.l - MARGIN.r;
  const scales = used.map((a) => axisScale(a, shown.map((r) => r[a.key] as number | string), top, bottom));
  // Tick labels sit left of their axis: a category label gets the gap to the previous axis (the first, the left margin).
  const gap = used.length > 1 ? span / (used.length - 1) : span / 2;
  const laid: AxisLayout[] = scales.map((s, i) => {
    const room = ((i === 0 ? MARGIN.l : gap) - 12) / CHAR_PX;
    const ticks = s.layout.scale === 'category' ? s.layout.ticks.map((t) => ({ ...t, text: fitLabel(t.text, room), full: t.text })) : s.layout.ticks;
    return { ...s.layout, ticks, x: MARGIN.l + (used.length === 1 ? span / 2 : (i / (used.length - 1)) * span) };
  });
  const scale = o.colorscale ?? COLOR_SCALES.viridis;
  const cv = o.colorBy ? shown.map((r) => Number(r[o.colorBy!])) : [];
  const colorRange: [number, number] | null = cv.length ? [Math.min(...cv), Math.max(...cv)] : null;
  const logColor = !!colorRange && colorRange[0] > 0 && colorRange[1] / colorRange[0] >= 100;
  const t = (v: number) => {
    if (!colorRange || colorRange[1] === colorRange[0]) return 0.5;
    const f = logColor ? Math.log(v / colorRange[0]) / Math.log(colorRange[1] / colorRange[0]) : (v - colorRange[0]) / (colorRange[1] - colorRange[0]);
    return o.lowIsBest ? 1 - f : f;
  };
  const lines = shown.map((r, i) => ({
    id: r.id,
    name: r.name ?? r.id,
    points: laid.map((a, j) => [a.x, scales[j]!.y(r[a.key] as number | string)] as [number, number]),
    value: o.colorBy ? Number(r[o.colorBy]) : null,
    color: o.colorBy ? colorAt(scale, t(Number(r[o.colorBy]))) : PLOT_COLORS[o.theme].lines[i % PLOT_COLORS[o.theme].lines.length]!,
  }));
  // The best lines last, so they are drawn on top.
  if (o.colorBy) lines.sort((a, b) => (o.lowIsBest ? b.value! - a.value! : a.value! - b.value!));
  return { axes: laid, lines, colorRange };
}

const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/** The figure as a standalone SVG document (what the view shows and what SVG/PDF/PNG exports hold). */
export function parallelSvg(axes: ParallelAxis[], rows: ParallelRow[], o: ParallelOptions): string {
  const c = PLOT_COLORS[o.theme];
  const L = parallelLayout(axes, rows, o);
  const font = 'font-family="Helvetica, Arial, sans-serif"';
  const parts: string[] = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${o.width}" height="${o.height}" viewBox="0 0 ${o.width} ${o.height}" ${font} font-size="11" data-lines="${L.lines.length}" data-axes="${L.axes.length}">`,
    `<rect width="${o.width}" height="${o.height}" fill="${c.bg}"/>`,
  ];
  if (o.title) parts.push(`<text x="${o.width / 2}" y="18" text-anchor="middle" font-size="13" fill="${c.fg}">${esc(o.title)}</text>`);
  for (const l of L.lines) {
    const d = l.points.map(([x, y], i) => `${i ? 'L' : 'M'}${x.toFixed(1)},${y.toFixed(1)}`).join('');
    parts.push(`<path class="pc-line" d="${d}" fill="none" stroke="${l.color}" stroke-width="2" stroke-opacity="0.85" data-id="${esc(l.id)}"${l.value != null ? ` data-value="${l.value}"` : ''}><title>${esc(l.name)}${l.value != null ? `: ${tickText(l.value)}` : ''}</title></path>`);
  }
  L.axes.forEach((a, i) => {
    // Labels alternate above the axes so long ones on neighbouring axes do not overlap.
    const ly = MARGIN.t - (i % 2 ? 10 : 24);
    parts.push(`<g class="pc-axis" data-key="${esc(a.key)}" data-scale="${a.scale}">`);
    parts.push(`<line x1="${a.x}" x2="${a.x}" y1="${MARGIN.t}" y2="${o.height - MARGIN.b}" stroke="${c.fg}" stroke-width="1"/>`);
    parts.push(`<text x="${a.x}" y="${ly}" text-anchor="middle" font-weight="bold" fill="${c.fg}">${esc(a.label)}</text>`);
    for (const t of a.ticks) {
      parts.push(`<line x1="${a.x - 3}" x2="${a.x}" y1="${t.y.toFixed(1)}" y2="${t.y.toFixed(1)}" stroke="${c.fg}"/>`);
      parts.push(`<text class="pc-tick" x="${a.x - 5}" y="${(t.y + 3.5).toFixed(1)}" text-anchor="end" fill="${c.fg}" paint-order="stroke" stroke="${c.bg}" stroke-width="3">${t.full !== undefined && t.full !== t.text ? `<title>${esc(t.full)}</title>` : ''}${esc(t.text)}</text>`);
    }
    parts.push('</g>');
  });
  if (L.colorRange && o.colorBy) parts.push(colorBar(L.colorRange, o, axes.find((a) => a.key === o.colorBy)?.label ?? o.colorBy));
  parts.push('</svg>');
  return parts.join('');
}

function colorBar(range: [number, number], o: ParallelOptions, label: string): string {
  const c = PLOT_COLORS[o.theme];
  const scale = o.colorscale ?? COLOR_SCALES.viridis;
  const x = o.width - 66;
  const top = MARGIN.t;
  const h = o.height - MARGIN.t - MARGIN.b;
  const stops = scale.map(([p, col]) => `<stop offset="${o.lowIsBest ? 1 - p : p}" stop-color="${col}"/>`);
  if (o.lowIsBest) stops.reverse();
  return [
    `<defs><linearGradient id="pc-cbar" x1="0" y1="1" x2="0" y2="0">${stops.join('')}</linearGradient></defs>`,
    `<rect x="${x}" y="${top}" width="12" height="${h}" fill="url(#pc-cbar)" stroke="${c.grid}"/>`,
    // its title right-aligned above the axis labels' two rows (centred on the bar it ran into the last axis' label)
    `<text class="pc-cbar-title" x="${o.width - 4}" y="${top - 38}" text-anchor="end" fill="${c.fg}">${esc(label)}</text>`,
    `<text x="${x + 15}" y="${top + 8}" fill="${c.fg}">${esc(tickText(range[1]))}</text>`,
    `<text x="${x + 15}" y="${top + h}" fill="${c.fg}">${esc(tickText(range[0]))}</text>`,
  ].join('');
}
