// Line charts as SVG text for the offline report (report-page.ts), written by hand: main/ holds no
// plotting library (Plotly is the renderer's, and it needs a DOM and scripts), and no small library
// draws the few charts the report needs into a string a file can hold inline. The approach is the
// Sweeps view's (renderer/src/views/sweeps/sweep-svg.ts): one string per chart, fixed size, no script;
// no xmlns (the HTML parser puts inline <svg> in its namespace), so the file names no URL at all.

export const escapeXml = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/** A tick label: three significant digits (two constant-lr ticks 9.5e-4 and 1.05e-3 stay apart), exponent form outside [1e-2, 1e4). */
export const tickLabel = (v: number) => (v !== 0 && (Math.abs(v) >= 1e4 || Math.abs(v) < 1e-2) ? v.toExponential(2) : String(Number(v.toPrecision(3))));

export interface Series {
  name: string;
  points: [number, number][];
  /** Dashed (e.g. a validation curve beside its training one). */
  dashed?: boolean;
}

export interface LineChart {
  title: string;
  xLabel: string;
  yLabel: string;
  series: Series[];
  /** Log scale on y (relL2, loss): values <= 0 are left out. */
  logY?: boolean;
  /** Draw each point as a dot too (a curve of one point is still seen). */
  dots?: boolean;
}

/** Colour-blind-safe (viridis steps), as the app's plots. */
const COLOURS = ['rgb(59,82,139)', 'rgb(33,145,140)', 'rgb(94,201,98)', 'rgb(253,231,37)', 'rgb(68,1,84)', 'rgb(180,90,40)'];

/** Tick values: linear -> 5 even steps; log -> each power of ten in range (the ends when there is none inside). */
function ticks(lo: number, hi: number, log: boolean): number[] {
  if (hi <= lo) return [lo];
  if (log) {
    const inside: number[] = [];
    for (let e = Math.ceil(lo); e <= Math.floor(hi); e++) inside.push(e);
    return inside.length >= 2 ? inside : [lo, hi];
  }
  return Array.from({ length: 5 }, (_, i) => lo + ((hi - lo) * i) / 4);
}

/** The most points a series draws: a run of 100k steps would make a file of megabytes for a 470 px line. */
export const MAX_POINTS = 1000;

/** At most MAX_POINTS points: each bucket's lowest and highest (spikes stay visible), first and last kept. */
function thin(points: [number, number][]): [number, number][] {
  if (points.length <= MAX_POINTS) return points;
  const per = Math.ceil(points.length / (MAX_POINTS / 2));
  const out: [number, number][] = [];
  for (let i = 0; i < points.length; i += per) {
    const b = points.slice(i, i + per);
    const lo = b.reduce((m, p) => (p[1] < m[1] ? p : m));
    const hi = b.reduce((m, p) => (p[1] > m[1] ? p : m));
    out.push(...(lo[0] <= hi[0] ? [lo, hi] : [hi, lo]));
  }
  if (out[0] !== points[0]) out.unshift(points[0]!);
  if (out.at(-1) !== points.at(-1)) out.push(points.at(-1)!);
  return out;
}

/** The chart as one <svg> element (width × height px), with a legend under the title. */
export function lineChartSvg(c: LineChart, width = 470, height = 290): string {
  const left = 72, right = 16, top = 44, bottom = 42;
  const tr = (v: number) => (c.logY ? Math.log10(v) : v);
  const series = c.series.map((s) => ({ ...s, points: thin(s.points.filter(([x, y]) => Number.isFinite(x) && Number.isFinite(y) && (!c.logY || y > 0))) }));
  const xs = series.flatMap((s) => s.points.map((p) => p[0]));
  const ys = series.flatMap((s) => s.points.map((p) => tr(p[1])));
  const out: string[] = [
    `<svg class="figure" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" role="img" aria-label="${escapeXml(c.title)}" font-family="sans-serif" font-size="11">`,
    `<rect width="${width}" height="${height}" fill="white"/>`,
    `<text x="${left}" y="16" font-size="13" font-weight="bold">${escapeXml(c.title)}</text>`,
    `<line x1="${left}" y1="${height - bottom}" x2="${width - right}" y2="${height - bottom}" stroke="#333"/>`,
    `<line x1="${left}" y1="${top}" x2="${left}" y2="${height - bottom}" stroke="#333"/>`,
    `<text x="${(left + width - right) / 2}" y="${height - 6}" text-anchor="middle">${escapeXml(c.xLabel)}</text>`,
    `<text transform="translate(14 ${(top + height - bottom) / 2}) rotate(-90)" text-anchor="middle">${escapeXml(c.yLabel)}${c.logY ? ' (log)' : ''}</text>`,
  ];
  // a legend of more than three entries would run off the chart (a sweep's trials): then it counts them
  if (series.length > 3) out.push(`<text x="${left}" y="34">${series.length} series (one colour each, in order)</text>`);
  else series.forEach((s, i) => {
    const lx = left + i * 120;
    out.push(`<line x1="${lx}" y1="30" x2="${lx + 18}" y2="30" stroke="${COLOURS[i % COLOURS.length]}" stroke-width="2"${s.dashed ? ' stroke-dasharray="5 3"' : ''}/><text x="${lx + 22}" y="34">${escapeXml(s.name)}</text>`);
  });
  if (!xs.length) {
    out.push(`<text x="${(left + width) / 2}" y="${height / 2}" text-anchor="middle" fill="#666">no data</text></svg>`);
    return out.join('');
  }
  let [x0, x1] = [Math.min(...xs), Math.max(...xs)];
  let [y0, y1] = [Math.min(...ys), Math.max(...ys)];
  if (x1 === x0) [x0, x1] = [x0 - 1, x1 + 1];
  if (y1 === y0) [y0, y1] = c.logY ? [y0 - 0.5, y1 + 0.5] : [y0 - Math.abs(y0 || 1) * 0.1, y1 + Math.abs(y1 || 1) * 0.1];
  const px = (x: number) => left + ((width - left - right) * (x - x0)) / (x1 - x0);
  const py = (y: number) => height - bottom - ((height - top - bottom) * (y - y0)) / (y1 - y0);
  for (const t of ticks(y0, y1, !!c.logY)) {
    out.push(`<line x1="${left - 4}" y1="${py(t).toFixed(1)}" x2="${width - right}" y2="${py(t).toFixed(1)}" stroke="#ddd"/><text x="${left - 6}" y="${(py(t) + 4).toFixed(1)}" text-anchor="end">${tickLabel(c.logY ? 10 ** t : t)}</text>`);
  }
  const xt = Number.isInteger(x0) && Number.isInteger(x1) && x1 - x0 <= 5 ? Array.from({ length: x1 - x0 + 1 }, (_, i) => x0 + i) : ticks(x0, x1, false);
  for (const t of xt) out.push(`<line x1="${px(t).toFixed(1)}" y1="${height - bottom}" x2="${px(t).toFixed(1)}" y2="${height - bottom + 4}" stroke="#333"/><text x="${px(t).toFixed(1)}" y="${height - bottom + 16}" text-anchor="middle">${tickLabel(t)}</text>`);
  series.forEach((s, i) => {
    const colour = COLOURS[i % COLOURS.length];
    const pts = s.points.map(([x, y]) => `${px(x).toFixed(1)},${py(tr(y)).toFixed(1)}`);
    if (pts.length > 1) out.push(`<polyline points="${pts.join(' ')}" fill="none" stroke="${colour}" stroke-width="1.6"${s.dashed ? ' stroke-dasharray="5 3"' : ''}/>`);
    if (c.dots || pts.length === 1) for (const p of pts) out.push(`<circle cx="${p.split(',')[0]}" cy="${p.split(',')[1]}" r="2.5" fill="${colour}"/>`);
  });
  out.push('</svg>');
  return out.join('');
}
