// The dataset object training and the UI use, whatever the source (a loaded file, an airfoil
// folder, or a generator's output): pipeline-prepared float32 arrays in channels-last layout
// ([n, ...grid, C], the NeuralOperator contract), the split indices, the normalizer statistics,
// which x channels are coordinates, and the manifest that describes all of it.
import type { SourceLayout } from './stages/layout';
import type { BenchmarkName } from './generate/types';
import type { NdArray } from './ndarray';
import type { ScalarStats } from './stages/normalize';
import { NORM_EPS } from './stages/normalize';
import type { ResizeMode } from './stages/resize';
import type { SplitSpec } from './stages/split';
import type { WindowSpec } from './stages/ns-windows';
import { seededPermutation } from './stages/split';

export type DatasetBenchmark = BenchmarkName | 'custom';

export interface PipelineOptions {
  benchmark: DatasetBenchmark;
  split: SplitSpec;
  /** Target grid (one number per spatial axis, or one for all); absent keeps the source grid. */
  resolution?: number | number[];
  resizeMode?: ResizeMode;
  /** Append linspace(0, 1) coordinate channels to x (default true). */
  coords?: boolean;
  /** Apply the unit-Gaussian normalizer (default true; statistics are recorded either way). */
  normalize?: boolean;
  /** Navier-Stokes windows; `normalizer` 'separate' (the release: history and targets apart, the default, DEFAULT_NS_NORMALIZER in pipeline.ts) or 'shared' (one set of statistics for every vorticity frame). */
  ns?: WindowSpec & { normalizer?: 'shared' | 'separate' };
}

export type SourceDescription =
  | { kind: 'file'; path: string; format: string; size: number; mtimeMs: number; input: string[]; target: string; layout?: SourceLayout }
  | { kind: 'generated'; benchmark: string; input: string[]; target: string; generator: Record<string, unknown> }
  | { kind: 'arrays'; name: string; input: string[]; target: string };

export interface ArrayEntry { file: string; shape: number[]; dtype: string }

export interface DatasetManifest {
  format: 'lino-dataset';
  version: 1;
  id: string;
  createdAt: string;
  benchmark: DatasetBenchmark;
  source: SourceDescription;
  parameters: PipelineOptions;
  /** Samples in the source before the split (trajectories for Navier-Stokes). */
  sourceSamples: number;
  /** The source's own spatial grid before the resize stage (absent in datasets made before it was recorded). */
  sourceGrid?: number[];
  counts: { train: number; val: number; test: number };
  grid: number[];
  xChannels: string[];
  yChannels: string[];
  coordChannels: number;
  normalization: { x: ScalarStats; y: ScalarStats; eps: number; applied: boolean; scope: string };
  warnings: string[];
  /** Set by the dataset store. */
  arrays?: Record<string, ArrayEntry>;
  contentHash?: string;
  cacheKey?: string;
}

export interface PreparedSplit {
  /** [n, ...grid, C_in] float32, normalized physical channels then coordinate channels. */
  x: NdArray;
  /** [n, ...grid, C_out] float32, normalized. */
  y: NdArray;
  /** Source sample of each row (repeats with sliding windows). */
  indices: Int32Array;
  /** Navier-Stokes: first history frame of each row. */
  windowStart?: Int32Array;
}

export interface PreparedDataset {
  manifest: DatasetManifest;
  train: PreparedSplit;
  val: PreparedSplit;
  test: PreparedSplit;
}

export type SplitName = 'train' | 'val' | 'test';

/** Physical values of normalized targets (or of normalized physical x channels with `which` = 'x'). */
export function decodeValues(ds: PreparedDataset, values: ArrayLike<number>, which: 'x' | 'y' = 'y'): Float32Array {
  const s = ds.manifest.normalization[which];
  const out = new Float32Array(values.length);
  if (!ds.manifest.normalization.applied) { out.set(values); return out; }
  const k = s.std + NORM_EPS;
  for (let i = 0; i < values.length; i++) out[i] = values[i] * k + s.mean;
  return out;
}

/** Rows of a split as a batch: x and y of the given row indices, copied. */
export function takeRows(split: PreparedSplit, rows: ArrayLike<number>): { x: NdArray; y: NdArray } {
  const take = (a: NdArray): NdArray => {
    const per = a.shape.slice(1).reduce((p, q) => p * q, 1);
    const src = a.data as Float32Array;
    const out = new Float32Array(rows.length * per);
    for (let r = 0; r < rows.length; r++) out.set(src.subarray(rows[r] * per, (rows[r] + 1) * per), r * per);
    return { data: out, shape: [rows.length, ...a.shape.slice(1)], dtype: 'float32' };
  };
  return { x: take(split.x), y: take(split.y) };
}

/** Mini-batches over a split, shuffled per epoch with a seed when `seed` is given. */
export function* batches(split: PreparedSplit, batchSize: number, seed?: number): Generator<{ x: NdArray; y: NdArray; rows: number[] }> {
  const n = split.x.shape[0];
  const order = seed === undefined ? Array.from({ length: n }, (_, i) => i) : seededPermutation(n, seed);
  for (let i = 0; i < n; i += batchSize) {
    const rows = order.slice(i, i + batchSize);
    yield { ...takeRows(split, rows), rows };
  }
}
