// Fields on a curvilinear (body-fitted) mesh, e.g. the airfoil's C-grid: the field as a filled
// contour on a plotly carpet (contourcarpet), so every value sits where its mesh node is in the
// plane instead of in an index heatmap; the mesh itself as carpet grid lines; and an invisible
// marker per node so hovering reports the node's value (contourcarpet has no hover of its own).
import { colorScale, sharedRange, type ColorScaleName } from './colorscales';
import type { Trace } from './traces';

export interface Mesh {
  /** Node coordinates, row-major: `rows` rows of `cols` nodes (the dataset's grid order). */
  x: ArrayLike<number>;
  y: ArrayLike<number>;
  rows: number;
  cols: number;
}

/** Whether a dataset's input channels are mesh coordinates (drawn on the mesh, not as an index heatmap). */
export function isMeshDataset(benchmark: string | undefined, inputNames: string[]): boolean {
  if (benchmark === 'airfoil') return true;
  return inputNames.length >= 2 && inputNames[0] === 'X' && inputNames[1] === 'Y' && benchmark !== 'darcy';
}

function rows2d(values: ArrayLike<number>, rows: number, cols: number, name: string): number[][] {
  if (values.length !== rows * cols) throw new Error(`mesh field: ${name} has ${values.length} values for a ${rows}x${cols} mesh`);
  const out: number[][] = [];
  for (let r = 0; r < rows; r++) out.push(Array.from({ length: cols }, (_, c) => values[r * cols + c]!));
  return out;
}

/** Carpet parameters: a runs along a row (cols), b down the rows. */
function carpetAxes(mesh: Mesh): { a: number[]; b: number[] } {
  return { a: Array.from({ length: mesh.cols }, (_, i) => i), b: Array.from({ length: mesh.rows }, (_, i) => i) };
}

const HIDDEN_AXIS = { showgrid: false, showline: false, showticklabels: 'none', startline: false, endline: false, minorgridcount: 0, smoothing: 0 };

export interface MeshFieldOptions {
  mesh: Mesh;
  values: ArrayLike<number>;
  scale?: ColorScaleName;
  range?: [number, number];
  colorbarTitle?: string;
  showScale?: boolean;
  /** Carpet id; unique per plot (several mesh fields may share a figure). */
  id?: string;
  /** Filled contour levels (default 24: smooth to the eye, fast to draw). */
  levels?: number;
  /** A stepped scale of its own (categorical maps), instead of `scale`. */
  colorscale?: unknown[];
  /** Colour bar ticks (categorical maps). */
  colorbarTicks?: { tickvals: number[]; ticktext: string[] };
}

/** [carpet, contourcarpet, hover markers] for one field on a mesh. */
export function meshFieldTraces(o: MeshFieldOptions): Trace[] {
  const { mesh } = o;
  const id = o.id ?? 'mesh';
  const [zmin, zmax] = o.range ?? sharedRange(o.values);
  const levels = o.levels ?? 24;
  const size = (zmax - zmin) / levels || 1;
  const x = rows2d(mesh.x, mesh.rows, mesh.cols, 'x');
  const y = rows2d(mesh.y, mesh.rows, mesh.cols, 'y');
  return [
    { type: 'carpet', carpet: id, ...carpetAxes(mesh), x, y, aaxis: HIDDEN_AXIS, baxis: HIDDEN_AXIS, hoverinfo: 'skip' },
    {
      type: 'contourcarpet',
      carpet: id,
      z: rows2d(o.values, mesh.rows, mesh.cols, 'values'),
      autocontour: false,
      contours: { coloring: 'fill', start: zmin, end: zmax, size, showlines: false },
      line: { width: 0 },
      colorscale: o.colorscale ?? colorScale(o.scale ?? 'viridis'),
      zmin,
      zmax,
      showscale: o.showScale ?? true,
      colorbar: o.colorbarTitle || o.colorbarTicks ? { ...(o.colorbarTitle ? { title: { text: o.colorbarTitle } } : {}), ...o.colorbarTicks } : undefined,
    },
    meshHoverTrace(mesh, o.values),
  ];
}

/** Hover markers wanted at most (thousands of SVG markers slow drawing and audits alike). */
const HOVER_MARKERS = 3000;

/**
 * Invisible markers carrying [node index, value], so hover works on the mesh: every node, or
 * every s-th row and column of a large mesh.
 */
export function meshHoverTrace(mesh: Mesh, values?: ArrayLike<number>): Trace {
  const s = Math.max(1, Math.ceil(Math.sqrt((mesh.rows * mesh.cols) / HOVER_MARKERS)));
  const x: number[] = [], y: number[] = [], custom: [number, number | null][] = [];
  for (let r = 0; r < mesh.rows; r += s) {
    for (let c = 0; c < mesh.cols; c += s) {
      const k = r * mesh.cols + c;
      x.push(mesh.x[k]!);
      y.push(mesh.y[k]!);
      custom.push([k, values ? values[k]! : null]);
    }
  }
  return {
    type: 'scatter',
    mode: 'markers',
    x,
    y,
    customdata: custom,
    marker: { size: 6 * s, opacity: 0 },
    hovertemplate: values ? 'x %{x:.3f}, y %{y:.3f}: %{customdata[1]:.4g}<extra></extra>' : 'x %{x:.3f}, y %{y:.3f}<extra></extra>',
    showlegend: false,
  };
}

/** The mesh itself (the input of a mesh dataset): carpet grid lines every `step` nodes. */
export function meshLinesTraces(mesh: Mesh, o: { id?: string; color?: string; step?: number } = {}): Trace[] {
  const id = o.id ?? 'mesh';
  const line = { showgrid: true, gridcolor: o.color ?? '#8c959f', gridwidth: 0.5, showline: false, showticklabels: 'none', startline: true, endline: true, minorgridcount: 0, smoothing: 0, tickmode: 'linear', dtick: o.step ?? 1 };
  return [
    { type: 'carpet', carpet: id, ...carpetAxes(mesh), x: rows2d(mesh.x, mesh.rows, mesh.cols, 'x'), y: rows2d(mesh.y, mesh.rows, mesh.cols, 'y'), aaxis: line, baxis: line, hoverinfo: 'skip' },
    meshHoverTrace(mesh),
  ];
}

/**
 * The region worth looking at first: on a C-grid the body is the part of the wall line (first
 * node of each row) that does not lie on the wake cut (where row i and its mirror row meet);
 * its bounding box, padded by half its size. Other meshes: their whole extent.
 */
export function meshFocus(mesh: Mesh): { x: [number, number]; y: [number, number] } {
  const { x, y, rows, cols } = mesh;
  let x0 = Infinity, x1 = -Infinity, y0 = Infinity, y1 = -Infinity;
  const take = (k: number) => {
    x0 = Math.min(x0, x[k]!); x1 = Math.max(x1, x[k]!);
    y0 = Math.min(y0, y[k]!); y1 = Math.max(y1, y[k]!);
  };
  const scale = Math.max(...[0, cols - 1, (rows - 1) * cols].map((k) => Math.abs(x[k]!)), 1e-12);
  for (let i = 0; i < rows; i++) {
    const a = i * cols, b = (rows - 1 - i) * cols;
    if (Math.hypot(x[a]! - x[b]!, y[a]! - y[b]!) > 1e-6 * scale) take(a);
  }
  if (x0 === Infinity) for (let k = 0; k < rows * cols; k++) take(k);
  const px = (x1 - x0) / 2 || 1, py = Math.max((y1 - y0) / 2, px / 2);
  return { x: [x0 - px, x1 + px], y: [y0 - py, y1 + py] };
}

/** Equal-aspect axes in physical coordinates, focused on the body. */
export function meshLayout(mesh: Mesh, title?: string): Record<string, unknown> {
  const f = meshFocus(mesh);
  return {
    ...(title ? { title } : {}),
    xaxis: { title: 'x', range: f.x, zeroline: false },
    yaxis: { title: 'y', range: f.y, zeroline: false, scaleanchor: 'x' },
    hovermode: 'closest',
    margin: { l: 50, r: 10, t: 30, b: 45 },
  };
}

/**
 * The Datasets preview of a mesh sample: the mesh (its input channels are the node coordinates)
 * and the target on it. Keys as the preview's heatmap panels ('Input-…', 'Target-…').
 */
export function meshPreviewPlots(s: { grid: number[]; index: number; split: string; x: { name: string; values: number[] }[] }, target: { name: string; values: number[] }) {
  const mesh: Mesh = { x: s.x[0]!.values, y: s.x[1]!.values, rows: s.grid[0]!, cols: s.grid[1]! };
  return [
    { key: 'Input-mesh', title: `Input: the ${mesh.rows} × ${mesh.cols} mesh (${s.x[0]!.name}, ${s.x[1]!.name}), sample ${s.index} (${s.split})`, data: meshLinesTraces(mesh, { step: 2 }), layout: meshLayout(mesh) },
    { key: `Target-${target.name}`, title: `Target ${target.name} on the mesh, sample ${s.index} (${s.split})`, data: meshFieldTraces({ mesh, values: target.values, colorbarTitle: target.name }), layout: meshLayout(mesh) },
  ];
}
