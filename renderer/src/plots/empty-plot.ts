// A plot with no data yet: plotly's autorange would draw empty axes from 0.1 to 10k (log) or -1
// to 6 (linear); the axes are hidden instead and the plot says "No data yet" until data arrives.
type Layout = Record<string, any>;
type Trace = Record<string, unknown>;

const DATA_KEYS = ['y', 'z', 'values', 'dimensions', 'x'] as const;

function hasFinite(v: unknown, depth = 0): boolean {
  if (typeof v === 'number') return Number.isFinite(v);
  if (typeof v === 'string') return v !== '';
  if (v === null || typeof v !== 'object' || depth > 3) return false;
  if (ArrayBuffer.isView(v)) return (v as unknown as ArrayLike<number>).length > 0 && Array.prototype.some.call(v, (x: number) => Number.isFinite(x));
  if (Array.isArray(v)) return v.some((x) => hasFinite(x, depth + 1));
  // parcoords/splom dimensions are objects holding their values
  return 'values' in v ? hasFinite((v as { values: unknown }).values, depth + 1) : false;
}

/** True when no trace holds a finite value in x, y, z, values or dimensions. */
export function isEmptyFigure(data: readonly Trace[]): boolean {
  return !data.some((t) => DATA_KEYS.some((k) => hasFinite(t[k])));
}

/** The layout with every axis hidden and a centred note in their place. */
export function emptyLayout(layout: Layout = {}, message = 'No data yet'): Layout {
  const out: Layout = { ...layout };
  const axes = Object.keys(layout).filter((k) => /^[xy]axis\d*$/.test(k));
  for (const k of new Set([...axes, 'xaxis', 'yaxis'])) out[k] = { ...layout[k], visible: false };
  const note = { text: message, xref: 'paper', yref: 'paper', x: 0.5, y: 0.5, showarrow: false, font: { size: 14 } };
  out.annotations = [...(Array.isArray(layout.annotations) ? layout.annotations : []), note];
  return out;
}
