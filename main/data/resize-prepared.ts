// A stored (prepared) dataset at another grid, for resolution transfer. When the dataset came from a
// file that is still there, the file is prepared again with the dataset's own options at the new grid
// (the same samples, split and resize stage as a run trained from that file). Otherwise (generated
// data, or the file is gone) the stored arrays are resized with the pipeline's resize stage and the
// coordinate channels rebuilt: interpolation is affine with weights summing to one, so resizing the
// normalized values equals normalizing the resized physical values, and the statistics stay valid.
import { existsSync } from 'node:fs';
import type { DatasetManifest, PreparedDataset, PreparedSplit, SplitName } from './dataset';
import { ndarray } from './ndarray';
import { prepareDataset } from './pipeline';
import { resizeSpatial } from './stages/resize';
import { gridCoords } from './stages/coords';

const SPLITS: SplitName[] = ['train', 'val', 'test'];

function resizeSplit(s: PreparedSplit, grid: number[], coordChannels: number): PreparedSplit {
  const x = resizeSpatial(s.x, grid, 'interpolate', 'resolution').arr;
  const y = resizeSpatial(s.y, grid, 'interpolate', 'resolution').arr;
  const xs = Float32Array.from(x.data as Float64Array);
  if (coordChannels > 0) {
    const C = x.shape[x.shape.length - 1]!;
    const P = grid.reduce((a, b) => a * b, 1);
    const coords = gridCoords(grid);
    for (let r = 0; r < x.shape[0]!; r++) for (let p = 0; p < P; p++) {
      for (let c = 0; c < coordChannels; c++) xs[(r * P + p) * C + C - coordChannels + c] = coords[p * coordChannels + c]!;
    }
  }
  return {
    x: ndarray(xs, x.shape, 'float32'),
    y: ndarray(Float32Array.from(y.data as Float64Array), y.shape, 'float32'),
    indices: s.indices,
    ...(s.windowStart ? { windowStart: s.windowStart } : {}),
  };
}

/** A grid as the papers write it: s = 29 for 29×29, 64×32 otherwise. */
export const gridSide = (g: readonly number[]) => (g.every((x) => x === g[0]) ? String(g[0]) : g.join('×'));

/**
 * How the data at a grid were made, for a transfer evaluation's row: made at that grid
 * by the generator ("re-generated at s = N"), or resampled by interpolation from another grid
 * ("resampled from s = M"); `resizedFrom`: the stored arrays' grid when those were resized.
 */
export function gridOrigin(m: Pick<DatasetManifest, 'grid' | 'source' | 'sourceGrid'>, transfer: boolean, resizedFrom?: readonly number[]): string {
  if (resizedFrom) return `resampled from s = ${gridSide(resizedFrom)} (the stored dataset's arrays, interpolated)`;
  const made = m.source.kind === 'generated' ? 'generated' : m.source.kind === 'file' ? 'the source file' : 'the arrays';
  if (!m.sourceGrid) return `s = ${gridSide(m.grid)} (how the grid was made is not recorded)`;
  const same = m.sourceGrid.length === m.grid.length && m.sourceGrid.every((g, k) => g === m.grid[k]);
  if (same) return m.source.kind === 'generated' ? `${transfer ? 're-generated' : 'generated'} at s = ${gridSide(m.grid)}` : `${made} at its own s = ${gridSide(m.grid)}`;
  return `resampled from s = ${gridSide(m.sourceGrid)} (${made === 'generated' ? 'the generated grid' : made}, interpolated)`;
}

/** The dataset at `grid` (one size per spatial axis); `how` says which of the two ways was taken. */
export async function preparedAtResolution(ds: PreparedDataset, grid: number[]): Promise<{ dataset: PreparedDataset; how: 'source file' | 'resized stored arrays' }> {
  const m = ds.manifest;
  if (grid.length !== m.grid.length) throw new Error(`dataset ${m.id}: resolution [${grid.join(', ')}] has ${grid.length} axes, expected ${m.grid.length} (grid ${m.grid.join('x')})`);
  const src = m.source;
  if (src.kind === 'file' && existsSync(src.path)) {
    const dataset = await prepareDataset({ kind: 'file', path: src.path, input: src.input, target: src.target }, { ...m.parameters, resolution: grid });
    return { dataset, how: 'source file' };
  }
  const out = {} as Record<SplitName, PreparedSplit>;
  for (const s of SPLITS) out[s] = resizeSplit(ds[s], grid, m.coordChannels);
  const upsampled = grid.some((g, k) => g > m.grid[k]!);
  const note = `resized from the stored ${m.grid.join('x')} arrays to ${grid.join('x')} by interpolation${upsampled ? ' (upsampling adds no information)' : ''}`;
  const { arrays: _arrays, contentHash: _hash, ...rest } = m;
  return {
    dataset: { manifest: { ...rest, grid: [...grid], parameters: { ...m.parameters, resolution: [...grid] }, warnings: [...m.warnings, note] }, ...out },
    how: 'resized stored arrays',
  };
}
