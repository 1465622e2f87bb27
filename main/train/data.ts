// The dataset shape the trainer consumes: the data pipeline's prepared dataset (main/data/dataset.ts,
// PreparedDataset) satisfies it structurally. Arrays are channels-last float32 [n, ...grid, C]:
// x = normalized physical channels then coordinate channels, y = normalized targets
// (autoregressive: the T_out target frames as channels, x's physical channels = the T_in history).
// A smooth analytic dataset of this shape for smoke tests: ./synthetic-data.ts.
import type { NormStats } from './loss';

export interface ArrayLikeNd {
  readonly data: ArrayLike<number>;
  readonly shape: readonly number[];
}

export interface TrainSplit {
  x: ArrayLikeNd;
  y: ArrayLikeNd;
}

export interface TrainData {
  manifest: {
    id?: string;
    contentHash?: string;
    /** The prepared dataset's benchmark (stored and file data say it here, not in the run's spec). */
    benchmark?: string;
    grid: number[];
    coordChannels: number;
    normalization: { x: { mean: number; std: number }; y: { mean: number; std: number }; eps: number; applied: boolean };
    /** Present for autoregressive (Navier-Stokes) data. */
    parameters?: { ns?: { tIn: number; tOut: number; normalizer?: string } };
  };
  train: TrainSplit;
  val: TrainSplit;
  test?: TrainSplit;
}

export function countOf(s: TrainSplit | undefined): number {
  return s ? s.x.shape[0]! : 0;
}

/** Target statistics for decoding (identity when the data are not normalized). */
export function targetStats(d: TrainData): NormStats {
  const n = d.manifest.normalization;
  return n.applied ? { mean: n.y.mean, std: n.y.std, eps: n.eps } : { mean: 0, std: 1, eps: 0 };
}

export function autoregressiveSpec(d: TrainData): { tIn: number; tOut: number } | null {
  const ns = d.manifest.parameters?.ns;
  return ns ? { tIn: ns.tIn, tOut: ns.tOut } : null;
}

/** Copies rows of a split into contiguous Float32Arrays (a batch). */
export function gatherRows(a: ArrayLikeNd, rows: readonly number[]): { data: Float32Array; shape: number[] } {
  const per = a.shape.slice(1).reduce((p, q) => p * q, 1);
  const out = new Float32Array(rows.length * per);
  const src = a.data;
  for (let r = 0; r < rows.length; r++) {
    const base = rows[r]! * per;
    if (src instanceof Float32Array) out.set(src.subarray(base, base + per), r * per);
    else for (let i = 0; i < per; i++) out[r * per + i] = src[base + i]!;
  }
  return { data: out, shape: [rows.length, ...a.shape.slice(1)] };
}
