// Traces of the Light maps view: one block's map as a field, the depth strip (every
// block side by side, one colour range), the dominant branch in the component colours, and a query
// point's scattering kernel (2D heatmap, 1D curve) with the point and its local neighbourhood marked.
import type { LightMapsResult } from '../../../main/api/contract';
import { COMPONENT_COLORS, type LightComponent } from './component-colors';
import { fieldAxes, fieldZ, heatmapTrace, type Trace } from './traces';

type Block = LightMapsResult['blocks'][number];

export const MAP_KINDS = [
  { key: 'reflectionActivity', label: 'Reflection activity' },
  { key: 'refractionActivity', label: 'Refraction activity' },
  { key: 'contribution.reflection', label: 'Reflection contribution' },
  { key: 'contribution.refraction', label: 'Refraction contribution' },
  { key: 'contribution.scattering', label: 'Scattering contribution' },
  { key: 'latentNorm', label: 'Latent norm ||x||' },
  { key: 'dominant', label: 'Dominant branch' },
] as const;
export type MapKind = (typeof MAP_KINDS)[number]['key'];

const BRANCHES: LightComponent[] = ['reflection', 'refraction', 'scattering'];

/** The block's values of a map, row-major over the grid; null where the branch is switched off. */
export function mapValues(b: Block, kind: MapKind): number[] | null {
  if (kind === 'dominant') return b.dominant.map((k) => BRANCHES.indexOf(b.components[k]!));
  if (kind.startsWith('contribution.')) return b.contribution[kind.slice(13) as LightComponent] ?? null;
  return b[kind as 'reflectionActivity' | 'refractionActivity' | 'latentNorm'] ?? null;
}

// dominant: a stepped scale, branch k (0..2) drawn in its component colour
const DOMINANT_SCALE = BRANCHES.flatMap((c, k) => [[k / 3, COMPONENT_COLORS[c]], [(k + 1) / 3, COMPONENT_COLORS[c]]]);

function fieldTrace(values: number[], grid: number[], kind: MapKind, range: [number, number], axis = ''): Trace {
  if (grid.length === 1) return { type: 'scatter', mode: 'lines', y: values, name: kind, ...(axis ? { xaxis: `x${axis}`, yaxis: `y${axis}` } : {}) };
  const axes = axis ? { xaxis: `x${axis}`, yaxis: `y${axis}` } : {};
  // a switched-off branch in the depth strip: an empty panel that keeps its column
  if (values.length === 0) return { type: 'heatmap', z: [], zmin: range[0], zmax: range[1], showscale: false, ...axes };
  if (kind === 'dominant') {
    return {
      type: 'heatmap', z: fieldZ(values, grid[0]!, grid[1]!), zmin: -0.5, zmax: 2.5, colorscale: DOMINANT_SCALE,
      colorbar: { tickvals: [0, 1, 2], ticktext: BRANCHES }, hovertemplate: 'x %{x}, y %{y}<extra></extra>', ...(axis ? { xaxis: `x${axis}`, yaxis: `y${axis}`, showscale: axis === '' || axis === '1' } : {}),
    };
  }
  return heatmapTrace({ values, nx: grid[0]!, ny: grid[1]!, range, showScale: axis === '' || axis === '1', ...(axis ? { xaxis: `x${axis}`, yaxis: `y${axis}` } : {}) });
}

function rangeOf(arrays: number[][]): [number, number] {
  let lo = Infinity, hi = -Infinity;
  for (const a of arrays) for (const v of a) { if (v < lo) lo = v; if (v > hi) hi = v; }
  return lo <= hi ? [lo, hi === lo ? lo + 1 : hi] : [0, 1];
}

/** One block's map (or the input field when `values` is given), with its layout. */
export function singleFigure(values: number[], grid: number[], kind: MapKind, title: string): { data: Trace[]; layout: Record<string, unknown> } {
  const layout = grid.length === 1 ? { xaxis: { title: 'x index' }, yaxis: { title } } : { ...fieldAxes(), title: { text: title } };
  return { data: [fieldTrace(values, grid, kind, rangeOf([values]))], layout: { ...layout, margin: { l: 50, r: 20, t: 40, b: 45 } } };
}

/** Every block's map in a row, one colour range across blocks so they compare. */
export function depthStrip(r: LightMapsResult, kind: MapKind): { data: Trace[]; layout: Record<string, unknown> } {
  const vals = r.blocks.map((b) => mapValues(b, kind));
  const range = rangeOf(vals.filter((v): v is number[] => v !== null));
  const layout: Record<string, unknown> = { grid: { rows: 1, columns: r.blocks.length, pattern: 'independent' }, margin: { l: 50, r: 20, t: 40, b: 45 }, annotations: [] };
  const data: Trace[] = [];
  vals.forEach((v, b) => {
    const axis = String(b + 1);
    const ax = fieldAxes();
    const n = b === 0 ? '' : axis;
    layout[`xaxis${n}`] = r.grid.length === 1 ? { title: `block ${b}` } : { ...ax.xaxis, title: `block ${b}`, scaleanchor: `y${n}` };
    layout[`yaxis${n}`] = r.grid.length === 1 ? { range } : ax.yaxis;
    // a switched-off branch: an empty panel, so block b stays in column b
    data.push(fieldTrace(v ?? [], r.grid, kind, range, axis === '1' ? '' : axis));
  });
  return { data, layout };
}

/** The query point's kernel row over the domain, the point marked, its local neighbourhood labelled with beta. */
export function kernelFigure(b: Block, grid: number[], query: number[]): { data: Trace[]; layout: Record<string, unknown> } {
  const k = b.kernel!;
  const ny = grid[1] ?? 1;
  const at = (flat: number) => (grid.length === 1 ? [flat, k.row[flat]!] : [Math.floor(flat / ny), flat % ny]);
  const local = k.local ? k.local.indices.map(at) : [];
  const q = grid.length === 1 ? [query[0]!, k.row[query[0]!]!] : query;
  const marks: Trace[] = [
    ...(local.length ? [{ type: 'scatter', mode: 'markers', name: `local (β = ${k.local!.beta.toFixed(3)})`, x: local.map((p) => p[0]), y: local.map((p) => p[1]), marker: { symbol: 'square-open', size: 12, color: COMPONENT_COLORS.scattering } }] : []),
    { type: 'scatter', mode: 'markers', name: 'query point', x: [q[0]], y: [q[1]], marker: { symbol: 'x', size: 12, color: '#d62728' } },
  ];
  if (grid.length === 1) return { data: [{ type: 'scatter', mode: 'lines', name: 'kernel', y: k.row }, ...marks], layout: { xaxis: { title: 'x index' }, yaxis: { title: 'kernel weight' }, margin: { l: 60, r: 20, t: 30, b: 45 } } };
  return { data: [heatmapTrace({ values: k.row, nx: grid[0]!, ny, colorbarTitle: 'weight' }), ...marks], layout: { ...fieldAxes(), legend: { orientation: 'h', y: 1.02, yanchor: 'bottom' }, margin: { l: 50, r: 20, t: 40, b: 45 } } };
}
