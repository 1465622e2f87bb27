// Traces of the Light maps view: one block's map as a field, the depth strip (every
// block side by side, one colour range), the dominant branch in the component colours, and a query
// point's scattering kernel (2D heatmap, 1D curve) with the point and its local neighbourhood marked.
import type { LightMapsResult } from '../../../main/api/contract';
import { COMPONENT_COLORS, type LightComponent } from './component-colors';
import { fieldAxes, fieldZ, heatmapTrace, type Trace } from './traces';
import { meshFieldTraces, meshLayout, meshLinesTraces, type Mesh } from './mesh-field';

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

/** A curvilinear-mesh result's mesh (airfoil C-grid), or null for a regular grid. */
export function resultMesh(r: LightMapsResult): Mesh | null {
  return r.mesh && r.grid.length === 2 ? { x: r.mesh.x, y: r.mesh.y, rows: r.grid[0]!, cols: r.grid[1]! } : null;
}

/** A map on the mesh: filled contours where the nodes are (the dominant branch in its component colours). */
function meshMapTraces(values: number[], mesh: Mesh, kind: MapKind, range: [number, number], id: string, axis = ''): Trace[] {
  const show = axis === '' || axis === '1';
  const traces = kind === 'dominant'
    ? meshFieldTraces({ mesh, values, range: [-0.5, 2.5], levels: 3, id, showScale: show, colorscale: DOMINANT_SCALE, colorbarTicks: { tickvals: [0, 1, 2], ticktext: BRANCHES } })
    : meshFieldTraces({ mesh, values, range, id, showScale: show });
  return axis ? traces.map((t) => ({ ...t, xaxis: `x${axis}`, yaxis: `y${axis}` })) : traces;
}

/** One block's map (or the input field when `values` is given), with its layout; on the mesh when there is one. */
export function singleFigure(values: number[], grid: number[], kind: MapKind, title: string, mesh?: Mesh | null): { data: Trace[]; layout: Record<string, unknown> } {
  if (mesh) return { data: meshMapTraces(values, mesh, kind, rangeOf([values]), 'map'), layout: meshLayout(mesh, title) };
  const layout = grid.length === 1 ? { xaxis: { title: 'x index' }, yaxis: { title } } : { ...fieldAxes(), title: { text: title } };
  return { data: [fieldTrace(values, grid, kind, rangeOf([values]))], layout: { ...layout, margin: { l: 50, r: 20, t: 40, b: 45 } } };
}

/** A mesh sample's input is the mesh itself: its grid lines, every second node. */
export function meshInputFigure(mesh: Mesh, title: string): { data: Trace[]; layout: Record<string, unknown> } {
  return { data: meshLinesTraces(mesh, { step: 2 }), layout: meshLayout(mesh, title) };
}

/** A block map's figure title; blocks are numbered from 1 (block index 0 is "block 1"), as in the view's picker, the depth strip and the Gates view. */
export const blockMapTitle = (label: string, block: number) => `${label}, block ${block + 1}`;

/** Columns of the depth strip: at most four panels a row, so each stays readable. */
export const stripColumns = (blocks: number) => Math.min(Math.max(blocks, 1), 4);

/**
 * Every block's map side by side (four a row), one colour range across blocks so they compare.
 * Blocks are numbered from 1, as in the paper and the Gates view; only the first column carries
 * the y axis title and tick labels, so neighbours' labels never overlap.
 */
export function depthStrip(r: LightMapsResult, kind: MapKind): { data: Trace[]; layout: Record<string, unknown> } {
  const vals = r.blocks.map((b) => mapValues(b, kind));
  const range = rangeOf(vals.filter((v): v is number[] => v !== null));
  const columns = stripColumns(r.blocks.length);
  const rows = Math.ceil(r.blocks.length / columns);
  const layout: Record<string, unknown> = { grid: { rows, columns, pattern: 'independent', xgap: 0.08, ygap: 0.25 }, margin: { l: 55, r: 20, t: 30, b: 45 }, annotations: [] };
  const data: Trace[] = [];
  const mesh = resultMesh(r);
  vals.forEach((v, b) => {
    const axis = String(b + 1);
    const n = b === 0 ? '' : axis;
    const first = b % columns === 0;
    if (mesh) {
      const m = meshLayout(mesh) as { xaxis: Record<string, unknown>; yaxis: Record<string, unknown> };
      layout[`xaxis${n}`] = { ...m.xaxis, title: `block ${b + 1}` };
      layout[`yaxis${n}`] = { ...m.yaxis, scaleanchor: `x${n}`, ...(first ? {} : { title: undefined, showticklabels: false }) };
      if (v) data.push(...meshMapTraces(v, mesh, kind, range, `strip${b}`, axis === '1' ? '' : axis));
      return;
    }
    const ax = fieldAxes();
    layout[`xaxis${n}`] = r.grid.length === 1 ? { title: `block ${b + 1}` } : { ...ax.xaxis, title: `block ${b + 1}`, scaleanchor: `y${n}` };
    const y = r.grid.length === 1 ? { range } : ax.yaxis;
    layout[`yaxis${n}`] = first ? y : { ...y, title: undefined, showticklabels: false };
    // a switched-off branch: an empty panel, so block b stays in its place
    data.push(fieldTrace(v ?? [], r.grid, kind, range, axis === '1' ? '' : axis));
  });
  return { data, layout };
}

/**
 * The query point's mark: one style on every panel (kernel, block maps of every kind, input). On a
 * map it stays out of the legend and of hover, so a click still reaches the map under it.
 */
const queryMark = (x: number, y: number, onMap = false): Trace => ({
  type: 'scatter', mode: 'markers', name: 'query point', x: [x], y: [y], marker: { symbol: 'x', size: 12, color: '#d62728' },
  ...(onMap ? { hoverinfo: 'skip', showlegend: false } : {}),
});

/**
 * A map or input figure with the query point marked where it was picked, so the dominant branch
 * (and every other map) shows which point the kernel below is of. `values`: a curve's values (1-D,
 * the mark sits on the curve); on a mesh the node's physical position. Unchanged without a query.
 */
export function withQueryMark<F extends { data: Trace[]; layout: Record<string, unknown> }>(fig: F, query: number[] | null | undefined, grid: number[], values: number[] | null, mesh?: Mesh | null): F {
  const at = query ? queryAt(query, grid, values, mesh) : null;
  return at ? { ...fig, data: [...fig.data, queryMark(at[0], at[1], true)] } : fig;
}

/** Where the query point sits on a panel: a curve's value (1-D), a mesh node's position, or [i, j]. */
function queryAt(query: number[], grid: number[], values: number[] | null, mesh?: Mesh | null): [number, number] | null {
  if (mesh) {
    const flat = query[0]! * (grid[1] ?? 1) + (query[1] ?? 0);
    return mesh.x[flat] !== undefined ? [mesh.x[flat]!, mesh.y[flat]!] : null;
  }
  if (grid.length === 1) return values && values[query[0]!] !== undefined ? [query[0]!, values[query[0]!]!] : null;
  return [query[0]!, query[1]!];
}

/** The depth strip with the query point marked on every block's panel (the dominant branch's strip too). */
export function stripWithQueryMarks(fig: { data: Trace[]; layout: Record<string, unknown> }, r: LightMapsResult, kind: MapKind): { data: Trace[]; layout: Record<string, unknown> } {
  if (!r.query) return fig;
  const mesh = resultMesh(r);
  const marks = r.blocks.flatMap((b, i) => {
    const at = queryAt(r.query!, r.grid, mapValues(b, kind), mesh);
    const n = i === 0 ? '' : String(i + 1);
    return at ? [{ ...queryMark(at[0], at[1], true), xaxis: `x${n}`, yaxis: `y${n}` }] : [];
  });
  return { ...fig, data: [...fig.data, ...marks] };
}

/** The query point's kernel row over the domain, the point marked, its local neighbourhood labelled with beta. */
export function kernelFigure(b: Block, grid: number[], query: number[], mesh?: Mesh | null): { data: Trace[]; layout: Record<string, unknown> } {
  const k = b.kernel!;
  const ny = grid[1] ?? 1;
  if (mesh) return meshKernelFigure(k, ny, query, mesh);
  const at = (flat: number) => (grid.length === 1 ? [flat, k.row[flat]!] : [Math.floor(flat / ny), flat % ny]);
  const local = k.local ? k.local.indices.map(at) : [];
  const q = grid.length === 1 ? [query[0]!, k.row[query[0]!]!] : query;
  const marks: Trace[] = [
    ...(local.length ? [{ type: 'scatter', mode: 'markers', name: `local (β = ${k.local!.beta.toFixed(3)})`, x: local.map((p) => p[0]), y: local.map((p) => p[1]), marker: { symbol: 'square-open', size: 12, color: COMPONENT_COLORS.scattering } }] : []),
    queryMark(q[0]!, q[1]!),
  ];
  if (grid.length === 1) return { data: [{ type: 'scatter', mode: 'lines', name: 'kernel', y: k.row }, ...marks], layout: { xaxis: { title: 'x index' }, yaxis: { title: 'kernel weight K(x_q, x)' }, margin: { l: 60, r: 20, t: 30, b: 45 } } };
  return { data: [heatmapTrace({ values: k.row, nx: grid[0]!, ny, colorbarTitle: 'kernel weight' }), ...marks], layout: { ...fieldAxes(), legend: { orientation: 'h', y: 1.02, yanchor: 'bottom' }, margin: { l: 50, r: 20, t: 40, b: 45 } } };
}

/** The kernel row on the mesh, the query node and the local neighbourhood at their physical positions. */
function meshKernelFigure(k: NonNullable<Block['kernel']>, ny: number, query: number[], mesh: Mesh): { data: Trace[]; layout: Record<string, unknown> } {
  const node = (flat: number) => [mesh.x[flat]!, mesh.y[flat]!];
  const local = k.local ? k.local.indices.map(node) : [];
  const q = node(query[0]! * ny + query[1]!);
  const marks: Trace[] = [
    ...(local.length ? [{ type: 'scatter', mode: 'markers', name: `local (β = ${k.local!.beta.toFixed(3)})`, x: local.map((p) => p[0]), y: local.map((p) => p[1]), marker: { symbol: 'square-open', size: 10, color: COMPONENT_COLORS.scattering } }] : []),
    queryMark(q[0]!, q[1]!),
  ];
  return { data: [...meshFieldTraces({ mesh, values: k.row, colorbarTitle: 'kernel weight', id: 'kernel' }), ...marks], layout: { ...meshLayout(mesh), legend: { orientation: 'h', y: 1.02, yanchor: 'bottom' } } };
}

/**
 * A block's map laid over the input, to read where a branch acts against the coefficient's
 * features: the input in grey with the map half-transparent on top (a curve: both lines, the map
 * on a second axis); on a mesh the map filled and the mesh lines over it.
 */
export function overlayFigure(r: LightMapsResult, values: number[], kind: MapKind, title: string): { data: Trace[]; layout: Record<string, unknown> } {
  const mesh = resultMesh(r);
  if (mesh) {
    const lines = meshLinesTraces(mesh, { id: 'overlay-mesh', step: 4, color: 'rgba(255,255,255,0.55)' });
    return { data: [...meshMapTraces(values, mesh, kind, rangeOf([values]), 'overlay-map'), lines[0]!], layout: meshLayout(mesh, title) };
  }
  const input = r.input[0]!;
  if (r.grid.length === 1) {
    return {
      data: [
        { type: 'scatter', mode: 'lines', name: 'input (channel 0)', y: input, line: { color: '#8c959f' } },
        { type: 'scatter', mode: 'lines', name: title, y: values, yaxis: 'y2' },
      ],
      layout: { xaxis: { title: 'x index' }, yaxis: { title: 'input' }, yaxis2: { title: 'map', overlaying: 'y', side: 'right' }, legend: { orientation: 'h', y: 1.02, yanchor: 'bottom' }, margin: { l: 50, r: 60, t: 40, b: 45 } },
    };
  }
  const [nx, ny] = r.grid as [number, number];
  const grey = { ...heatmapTrace({ values: input, nx, ny, showScale: false, name: 'input' }), colorscale: [[0, '#1f1f1f'], [1, '#f0f0f0']], hoverinfo: 'skip' };
  const map = { ...fieldTrace(values, r.grid, kind, rangeOf([values])), opacity: 0.6 };
  return { data: [grey, map], layout: { ...fieldAxes(), title: { text: title }, margin: { l: 50, r: 20, t: 40, b: 45 } } };
}
