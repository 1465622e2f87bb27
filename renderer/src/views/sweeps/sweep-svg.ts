// The Sweeps view's figures as SVG text (drawn inline, exported as SVG or PDF as they are, no
// WebGL): parallel coordinates coloured by the metric, and the best-so-far curve over trials.
// Our own small component: the workflow-ui's shared parallel-coordinates component was not
// available when this was written; the two can be unified.

export interface PcAxis {
  label: string;
  /** One value per line: a number, or a category shown by its text. */
  values: (number | string)[];
  log?: boolean;
}

const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
const num = (v: number) => (Math.abs(v) >= 1e4 || (Math.abs(v) < 1e-2 && v !== 0) ? v.toExponential(1) : String(Number(v.toPrecision(3))));

/** Viridis at t in [0, 1] (5 stops, linear between them). */
export function viridis(t: number): string {
  const stops = [[68, 1, 84], [59, 82, 139], [33, 145, 140], [94, 201, 98], [253, 231, 37]];
  const x = Math.min(1, Math.max(0, t)) * (stops.length - 1);
  const i = Math.min(stops.length - 2, Math.floor(x));
  const f = x - i;
  const c = stops[i]!.map((a, k) => Math.round(a + (stops[i + 1]![k]! - a) * f));
  return `rgb(${c[0]},${c[1]},${c[2]})`;
}

/** Where each value sits on its axis, in [0, 1] (categories evenly spaced in first-seen order). */
function scale(a: PcAxis): { pos: (v: number | string) => number; ticks: { at: number; text: string }[] } {
  if (a.values.every((v) => typeof v === 'number')) {
    const f = (v: number) => (a.log ? Math.log10(v) : v);
    const xs = (a.values as number[]).map(f);
    const lo = Math.min(...xs), hi = Math.max(...xs);
    const pos = (v: number | string) => (hi > lo ? (f(Number(v)) - lo) / (hi - lo) : 0.5);
    const ticks = hi > lo ? [0, 0.5, 1].map((t) => ({ at: t, text: num(a.log ? 10 ** (lo + t * (hi - lo)) : lo + t * (hi - lo)) })) : [{ at: 0.5, text: num(Number(a.values[0])) }];
    return { pos, ticks };
  }
  const cats = [...new Set(a.values.map(String))];
  const pos = (v: number | string) => (cats.length > 1 ? cats.indexOf(String(v)) / (cats.length - 1) : 0.5);
  return { pos, ticks: cats.map((c, i) => ({ at: cats.length > 1 ? i / (cats.length - 1) : 0.5, text: c })) };
}

/** Parallel coordinates: one vertical axis per parameter and a last one for the metric; one line per trial, coloured by the metric (low = dark). */
export function parallelCoordinatesSvg(axes: PcAxis[], metric: number[], metricLabel: string, width = 720, height = 320): string {
  const all = [...axes, { label: metricLabel, values: metric, log: metric.every((m) => m > 0) }];
  const left = 60, right = 60, top = 30, bottom = 40;
  const x = (i: number) => left + ((width - left - right) * i) / Math.max(1, all.length - 1);
  const y = (t: number) => top + (height - top - bottom) * (1 - t);
  const scales = all.map(scale);
  const mScale = scales[scales.length - 1]!;
  const out: string[] = [`<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" role="img" aria-label="${esc(`Parallel coordinates of ${axes.length} parameters and ${metricLabel}, ${metric.length} trials`)}" font-family="sans-serif" font-size="11">`];
  out.push(`<rect width="${width}" height="${height}" fill="white"/>`);
  metric.forEach((m, r) => {
    const pts = all.map((a, i) => `${x(i).toFixed(1)},${y(scales[i]!.pos(a.values[r]!)).toFixed(1)}`).join(' ');
    out.push(`<polyline points="${pts}" fill="none" stroke="${viridis(1 - mScale.pos(m))}" stroke-width="1.5" stroke-opacity="0.8"><title>${esc(`trial ${r + 1}: ${metricLabel} ${num(m)}`)}</title></polyline>`);
  });
  all.forEach((a, i) => {
    out.push(`<line x1="${x(i)}" y1="${y(0)}" x2="${x(i)}" y2="${y(1)}" stroke="#333"/>`);
    out.push(`<text x="${x(i)}" y="${top - 12}" text-anchor="middle" font-weight="bold">${esc(a.label)}</text>`);
    for (const t of scales[i]!.ticks) out.push(`<text x="${x(i) + 4}" y="${y(t.at) + 4}" fill="#333">${esc(t.text)}</text>`);
  });
  out.push('</svg>');
  return out.join('');
}

/** Each finished trial's metric (dots) and the best so far (a step line), log scale on y. */
export function bestSoFarSvg(points: { trial: number; value: number; best: number }[], width = 520, height = 260): string {
  const left = 70, right = 20, top = 20, bottom = 40;
  const vals = points.flatMap((p) => [p.value, p.best]).filter((v) => v > 0);
  const lo = Math.log10(Math.min(...vals)), hi = Math.log10(Math.max(...vals));
  const n = Math.max(1, points.length);
  const x = (t: number) => left + ((width - left - right) * (t - 1)) / Math.max(1, n - 1);
  const y = (v: number) => top + (height - top - bottom) * (hi > lo ? 1 - (Math.log10(v) - lo) / (hi - lo) : 0.5);
  const out: string[] = [`<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" role="img" aria-label="Best validation relL2 so far over ${points.length} trials" font-family="sans-serif" font-size="11">`, `<rect width="${width}" height="${height}" fill="white"/>`];
  out.push(`<line x1="${left}" y1="${height - bottom}" x2="${width - right}" y2="${height - bottom}" stroke="#333"/><line x1="${left}" y1="${top}" x2="${left}" y2="${height - bottom}" stroke="#333"/>`);
  out.push(`<text x="${(left + width - right) / 2}" y="${height - 8}" text-anchor="middle">trial</text><text x="12" y="${top + 4}">val relL2</text>`);
  if (vals.length) {
    for (const v of [10 ** lo, 10 ** hi]) out.push(`<text x="${left - 4}" y="${y(v) + 4}" text-anchor="end">${num(v)}</text>`);
    out.push(`<polyline points="${points.map((p) => `${x(p.trial).toFixed(1)},${y(p.best).toFixed(1)}`).join(' ')}" fill="none" stroke="rgb(59,82,139)" stroke-width="2"/>`);
    for (const p of points) out.push(`<circle cx="${x(p.trial).toFixed(1)}" cy="${y(p.value).toFixed(1)}" r="3" fill="rgb(33,145,140)"><title>${esc(`trial ${p.trial}: ${num(p.value)}`)}</title></circle>`);
  }
  out.push('</svg>');
  return out.join('');
}
