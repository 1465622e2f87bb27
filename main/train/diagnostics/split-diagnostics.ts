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

type Arr = { data: ArrayLike<number>; shape: readonly number[] };

/** The split's physical input channels and targets, decoded as the predictions are. */
function decoded(d: SplitDiagnosticsInput): { input: Arr; truth: Arr } {
  const C = d.predictions.shape[d.predictions.shape.length - 1]!;
  const truth = leadingChannels(d.split.y, C, d.stats.applied ? d.stats.y : null, d.stats.eps);
  const cx = d.split.x.shape[d.split.x.shape.length - 1]! - d.coordChannels;
  const input = leadingChannels(d.split.x, cx, d.stats.applied ? d.stats.x : null, d.stats.eps);
  return { input, truth };
}

/**
 * The error spectrum and the physics check of decoded arrays: `input` [n, ...grid, Cx] (physical
 * channels), `pred` and `truth` [n, ...grid, C]. Without a truth (a Playground input not solved yet):
 * no spectrum (it is the error's), the physics of the prediction alone. The one place the views'
 * diagnostics come from: a split, one of its samples, a Playground input.
 */
export function diagnosticsOf(input: Arr, pred: Arr, truth: Arr | null, benchmark: string | undefined, generator?: Record<string, unknown>, indices?: readonly number[]): SplitDiagnostics {
  const grid = pred.shape.slice(1, -1);
  const gridded = grid.length >= 1 && grid.length <= 2 && grid.every((g) => g >= 2);
  const spectrum = truth && gridded ? spectrumReport(pred, truth, indices) : null;
  const o = { clamp: generator?.clamp === true, ...(generator ? { generator } : {}), ...(indices ? { indices } : {}) };
  return { spectrum, physics: physicsReport(benchmark, input, pred, truth, o) };
}

/** Row `i` of a channels-last array as an array of one row. */
export function rowOf(a: Arr, i: number): { data: ArrayLike<number>; shape: number[] } {
  const per = a.shape.slice(1).reduce((x, y) => x * y, 1);
  const data = a.data instanceof Float32Array || a.data instanceof Float64Array ? a.data.subarray(i * per, (i + 1) * per) : Array.prototype.slice.call(a.data, i * per, (i + 1) * per) as number[];
  return { data, shape: [1, ...a.shape.slice(1)] };
}

export function splitDiagnostics(d: SplitDiagnosticsInput): SplitDiagnostics {
  const { input, truth } = decoded(d);
  // perSample indices are rows of the split, as the evaluation's own perSample
  return diagnosticsOf(input, d.predictions, truth, d.benchmark, d.generator);
}

/** The diagnostics of single rows of the split (the samples a view shows), each on its own: its spectrum, its residual map. */
export function sampleDiagnostics(d: SplitDiagnosticsInput, rows: readonly number[]): Map<number, SplitDiagnostics> {
  const { input, truth } = decoded(d);
  const out = new Map<number, SplitDiagnostics>();
  for (const i of rows) if (!out.has(i)) out.set(i, diagnosticsOf(rowOf(input, i), rowOf(d.predictions, i), rowOf(truth, i), d.benchmark, d.generator, [i]));
  return out;
}
