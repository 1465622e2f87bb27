// Trace builders for the two kinds of plot every view draws: heatmaps of fields and lines.
import { colorScale, sharedRange, symmetricRange, type ColorScaleName } from './colorscales';
import { minMaxDownsample, indexAxis } from './downsample';

export type Trace = Record<string, unknown>;

/**
 * The one orientation of every field on a regular grid (docs/data.md, "Axis convention"): a 2-D
 * field is stored [x-index, y-index] (first axis x, as FNO's get_grid and ns_2d.py), so x runs
 * across and y upwards (y = 0 at the bottom). Plotly draws z[row][col] at (col, row): the stored
 * field is transposed here, z[j][i] = values[i * ny + j].
 */
export function fieldZ(values: ArrayLike<number>, nx: number, ny: number): Float64Array[] {
  if (values.length !== nx * ny) throw new Error(`fieldZ: ${values.length} values for a ${nx}x${ny} grid`);
  const z: Float64Array[] = [];
  for (let j = 0; j < ny; j++) {
    const row = new Float64Array(nx);
    for (let i = 0; i < nx; i++) row[i] = values[i * ny + j]!;
    z.push(row);
  }
  return z;
}

/** Axes of a field plot: labelled x and y, y upward (autorange true, never 'reversed'), equal aspect. */
export function fieldAxes(constrain: 'range' | 'domain' = 'domain'): { xaxis: Record<string, unknown>; yaxis: Record<string, unknown> } {
  return { xaxis: { title: 'x index', scaleanchor: 'y', constrain }, yaxis: { title: 'y index', autorange: true, constrain } };
}

/** The flat index of node (x index i, y index j) of a stored [nx, ny] field. */
export const fieldNode = (i: number, j: number, ny: number) => i * ny + j;

export interface HeatmapOptions {
  /** The stored field, [nx, ny] row-major (first axis x); drawn by fieldZ's convention. */
  values: ArrayLike<number>;
  nx: number;
  ny: number;
  scale?: ColorScaleName;
  /** Colour range; defaults to the field's own range (symmetric around 0 for RdBu). */
  range?: [number, number];
  name?: string;
  colorbarTitle?: string;
  showScale?: boolean;
  xaxis?: string;
  yaxis?: string;
}

export function heatmapTrace(o: HeatmapOptions): Trace {
  if (o.values.length !== o.nx * o.ny) throw new Error(`heatmapTrace: ${o.values.length} values for a ${o.nx}x${o.ny} grid`);
  const z = fieldZ(o.values, o.nx, o.ny);
  const scale = o.scale ?? 'viridis';
  const [zmin, zmax] = o.range ?? (scale === 'RdBu' ? symmetricRange(o.values) : sharedRange(o.values));
  return {
    type: 'heatmap',
    z,
    name: o.name,
    colorscale: colorScale(scale),
    zmin,
    zmax,
    showscale: o.showScale ?? true,
    colorbar: o.colorbarTitle ? { title: { text: o.colorbarTitle } } : undefined,
    hovertemplate: 'x %{x}, y %{y}: %{z:.4g}<extra></extra>',
    ...(o.xaxis ? { xaxis: o.xaxis } : {}),
    ...(o.yaxis ? { yaxis: o.yaxis } : {}),
  };
}

export interface LineOptions {
  y: ArrayLike<number>;
  x?: ArrayLike<number>;
  name?: string;
  /** Draw at most ~2 points per bucket; defaults to 1200 buckets (a wide plot's pixel count). */
  buckets?: number;
  dash?: 'solid' | 'dash' | 'dot';
  opacity?: number;
  width?: number;
  color?: string;
}

export function lineTrace(o: LineOptions): Trace {
  const x = o.x ?? indexAxis(o.y.length);
  const d = minMaxDownsample(x, o.y, o.buckets ?? 1200);
  return {
    type: 'scatter',
    mode: 'lines',
    x: d.x,
    y: d.y,
    name: o.name,
    opacity: o.opacity,
    line: { dash: o.dash ?? 'solid', width: o.width ?? 2, ...(o.color ? { color: o.color } : {}) },
    connectgaps: false,
  };
}
