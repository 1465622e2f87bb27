// The diagnostics of one evaluated split: its inputs and targets decoded to physical units with the
// checkpoint's training statistics (as the predictions are), then the error spectrum and the physics check.
import type { TrainSplit } from '../data';
import { spectrumReport } from './spectrum';
import { physicsReport } from './physics';
import type { SplitDiagnostics } from './schema';

type Stats = { mean: number; std: number };

/** Channels [0, keep) of a channels-last array, decoded with `st` (null: as stored). */
export function leadingChannels(a: { data: ArrayLike<number>; shape: readonly number[] }, keep: number, st: Stats | null, eps: number): { data: Float64Array; shape: number[] } {
  const C = a.shape[a.shape.length - 1]!;
  const rows = a.data.length / C;
  const out = new Float64Array(rows * keep);
  for (let r = 0; r < rows; r++) for (let c = 0; c < keep; c++) {
    const v = a.data[r * C + c]!;
    out[r * keep + c] = st ? v * (st.std + eps) + st.mean : v;
  }
  return { data: out, shape: [...a.shape.slice(0, -1), keep] };
}

export interface SplitDiagnosticsInput {
  /** The split as the model saw it (encoded with the training statistics). */
  split: TrainSplit;
  coordChannels: number;
  stats: { x: Stats; y: Stats; eps: number; applied: boolean };
  /** Decoded predictions [n, ...grid, C]. */
  predictions: { data: Float32Array; shape: number[] };
  benchmark: string | undefined;
  /** The generator's parameters when the data were generated (Darcy: clamp; Navier-Stokes: nu, forcing). */
  generator?: Record<string, unknown>;
}

export function splitDiagnostics(d: SplitDiagnosticsInput): SplitDiagnostics {
  const C = d.predictions.shape[d.predictions.shape.length - 1]!;
  const grid = d.predictions.shape.slice(1, -1);
  const truth = leadingChannels(d.split.y, C, d.stats.applied ? d.stats.y : null, d.stats.eps);
  const cx = d.split.x.shape[d.split.x.shape.length - 1]! - d.coordChannels;
  const input = leadingChannels(d.split.x, cx, d.stats.applied ? d.stats.x : null, d.stats.eps);
  // perSample indices are rows of the split, as the evaluation's own perSample
  const spectrum = grid.length >= 1 && grid.length <= 2 && grid.every((g) => g >= 2) ? spectrumReport(d.predictions, truth) : null;
  return { spectrum, physics: physicsReport(d.benchmark, input, d.predictions, truth, { clamp: d.generator?.clamp === true, ...(d.generator ? { generator: d.generator } : {}) }) };
}
