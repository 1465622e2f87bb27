// Trace builders for the two kinds of plot every view draws: heatmaps of fields and lines.
import { colorScale, sharedRange, symmetricRange, type ColorScaleName } from './colorscales';
import { minMaxDownsample, indexAxis } from './downsample';

export type Trace = Record<string, unknown>;

export interface HeatmapOptions {
  /** Row-major values, ny rows of nx. */
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
  if (o.values.length !== o.nx * o.ny) throw new Error(`heatmapTrace: ${o.values.length} values for a ${o.ny}x${o.nx} grid`);
  // Rows are views into one typed array (no per-value copies); Plotly reads typed-array rows.
  const flat = o.values instanceof Float32Array || o.values instanceof Float64Array ? o.values : Float64Array.from(o.values);
  const z: (Float32Array | Float64Array)[] = [];
  for (let r = 0; r < o.ny; r++) z.push(flat.subarray(r * o.nx, (r + 1) * o.nx));
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
