// The Sweeps view's best-so-far curve over trials as SVG text (drawn inline, exported as SVG or PDF
// as it is, no WebGL); its parallel coordinates are the shared plots/parallel-coordinates-plot.

const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
const num = (v: number) => (Math.abs(v) >= 1e4 || (Math.abs(v) < 1e-2 && v !== 0) ? v.toExponential(1) : String(Number(v.toPrecision(3))));

/** Whole trial numbers for the x axis: 1, the last, and at most about 8 evenly stepped between. */
export function trialTicks(n: number): number[] {
  const step = [1, 2, 5, 10, 20, 25, 50, 100, 200, 250, 500, 1000].find((s) => n / s <= 8) ?? Math.ceil(n / 8);
  const out = new Set([1]);
  for (let t = step; t < n; t += step) out.add(t);
  out.add(n);
  // the last tick drops a neighbour closer than half a step (their labels would touch)
  return [...out].filter((t, i) => t === n || i === 0 || n - t >= step / 2);
}

/** Each finished trial's metric (dots) and the best so far (a step line), log scale on y. */
export function bestSoFarSvg(points: { trial: number; value: number; best: number }[], width = 520, height = 260): string {
  // the axis title sits above the plot: beside it, it ran into the top tick's label
  const left = 70, right = 20, top = 24, bottom = 44;
  const vals = points.flatMap((p) => [p.value, p.best]).filter((v) => v > 0);
  const vmin = Math.min(...vals), vmax = Math.max(...vals);
  // 5% of room above and below: the best-so-far line sat on the x axis
  const pad = Math.max(0.05 * (Math.log10(vmax) - Math.log10(vmin)), 0.02);
  const lo = Math.log10(vmin) - pad, hi = Math.log10(vmax) + pad;
  const n = Math.max(1, points.length);
  const x = (t: number) => left + ((width - left - right) * (t - 1)) / Math.max(1, n - 1);
  const y = (v: number) => top + (height - top - bottom) * (hi > lo ? 1 - (Math.log10(v) - lo) / (hi - lo) : 0.5);
  const out: string[] = [`<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" role="img" aria-label="Best validation relL2 so far over ${points.length} trials" font-family="sans-serif" font-size="11">`, `<rect width="${width}" height="${height}" fill="white"/>`];
  out.push(`<line x1="${left}" y1="${height - bottom}" x2="${width - right}" y2="${height - bottom}" stroke="#333"/><line x1="${left}" y1="${top}" x2="${left}" y2="${height - bottom}" stroke="#333"/>`);
  out.push(`<text x="${(left + width - right) / 2}" y="${height - 8}" text-anchor="middle">trial</text><text x="${left}" y="${top - 8}">val relL2</text>`);
  if (vals.length) {
    for (const t of trialTicks(n)) out.push(`<line x1="${x(t).toFixed(1)}" y1="${height - bottom}" x2="${x(t).toFixed(1)}" y2="${height - bottom + 4}" stroke="#333"/><text class="x-tick" x="${x(t).toFixed(1)}" y="${height - bottom + 15}" text-anchor="middle">${t}</text>`);
    for (const v of [vmin, vmax]) out.push(`<text x="${left - 4}" y="${y(v) + 4}" text-anchor="end">${num(v)}</text>`);
    out.push(`<polyline points="${points.map((p) => `${x(p.trial).toFixed(1)},${y(p.best).toFixed(1)}`).join(' ')}" fill="none" stroke="rgb(59,82,139)" stroke-width="2"/>`);
    for (const p of points) out.push(`<circle cx="${x(p.trial).toFixed(1)}" cy="${y(p.value).toFixed(1)}" r="3" fill="rgb(33,145,140)"><title>${esc(`trial ${p.trial}: ${num(p.value)}`)}</title></circle>`);
  }
  out.push('</svg>');
  return out.join('');
}
