// One Playground input through a loaded run: checked against what the model takes,
// encoded with the checkpoint's normalizer plus the coordinate channels the pipeline appends,
// predicted by predictBatched (the loop `lino predict` runs), decoded; relL2 against a truth as the
// evaluation's relL2Decoded defines it, and how far the input lies from the training inputs.
import { gridCoords } from '../data/stages/coords';
import { REL_EPS } from './loss';
import { predictBatched } from './predict-batched';
import { inputDistance } from './input-distance';
import type { PlaygroundRun } from './playground-run';
import type { PlaygroundFields, PlaygroundPrediction } from '../runs/playground-records';
import { firstNonFloat32 } from '../util/float32';
import { diagnosticsOf } from './diagnostics/split-diagnostics';
import type { SplitDiagnostics } from './diagnostics/schema';

/** A refusal naming the parameter field it is about (the engine answers it as invalid_params). */
export class PlaygroundInputError extends Error {
  constructor(readonly field: string, message: string) {
    super(`field '${field}': ${message}`);
    this.name = 'PlaygroundInputError';
  }
}

/** The run's own grid is required by kinds that fix it (DeepONet's branch takes every sensor point). */
const FIXED_GRID_KINDS = new Set(['deeponet']);

/** Refuses an input the run's model cannot take: wrong number of axes or channels, a fixed grid changed. */
export function checkInput(run: PlaygroundRun, f: PlaygroundFields, field: string, channels: number): void {
  if (f.grid.length !== run.grid.length) throw new PlaygroundInputError(`${field}.grid`, `${f.grid.length} axes, the run's model is ${run.grid.length}D (its grid is [${run.grid.join(', ')}])`);
  if (f.channels.length !== channels) throw new PlaygroundInputError(`${field}.channels`, `${f.channels.length} channels, the run's model ${field === 'truth' ? 'answers' : 'takes'} ${channels}`);
  if (FIXED_GRID_KINDS.has(run.kind) && f.grid.join() !== run.grid.join()) {
    throw new PlaygroundInputError(`${field}.grid`, `[${f.grid.join(', ')}], a ${run.kind} model takes only its training grid [${run.grid.join(', ')}]`);
  }
}

/** The model's input [1, ...grid, C_in + coords]: encoded physical channels, then linspace(0, 1) coordinates. */
export function encodeInput(run: PlaygroundRun, f: PlaygroundFields, field = 'input'): { data: Float32Array; shape: number[] } {
  const P = f.grid.reduce((a, b) => a * b, 1);
  const C = run.inChannels + run.coordChannels;
  const n = run.normalizer;
  const k = n.applied ? n.x.std + n.eps : 1, m = n.applied ? n.x.mean : 0;
  const coords = run.coordChannels ? gridCoords(f.grid) : new Float32Array(0);
  const x = new Float32Array(P * C);
  for (let p = 0; p < P; p++) {
    for (let c = 0; c < run.inChannels; c++) x[p * C + c] = (f.channels[c]![p]! - m) / k;
    for (let d = 0; d < run.coordChannels; d++) x[p * C + run.inChannels + d] = coords[p * run.coordChannels + d]!;
  }
  assertEncodedFinite(x, C, f, field, 'x');
  return { data: x, shape: [1, ...f.grid, C] };
}

/**
 * Refuses channels-last float32 values `data` ([...grid, C]) of which one left float32 when `f`
 * was encoded with the run's normalizer ((v - mean) / std): a value that is finite in float32 can
 * overflow once divided by a small std (a truth of 3e38 against a std of 0.005).
 */
export function assertEncodedFinite(data: Float32Array, C: number, f: PlaygroundFields, field: string, which: 'x' | 'y'): void {
  const at = firstNonFloat32(data);
  if (at < 0) return;
  const c = at % C, p = Math.floor(at / C);
  throw new PlaygroundInputError(`${field}.channels.${c}.${p}`, `${f.channels[c]?.[p]} becomes ${data[at]} in float32 once encoded with the run's ${which} normalizer ((v - mean) / std): expected a value nearer the training data's`);
}

/** Refuses a prediction that is not finite in float32 (an input so far from the training data that the model overflows). */
export function assertPredictionFinite(channels: ArrayLike<number>[], field = 'input'): void {
  for (const [c, ch] of channels.entries()) {
    const at = firstNonFloat32(ch);
    if (at >= 0) throw new PlaygroundInputError(field, `the model's prediction for this input is ${ch[at]} at channel ${c}, point ${at} (not finite in float32): the input is too far from the training data for this model`);
  }
}

/** ||pred - truth|| / (||truth|| + eps) over every point and channel, in float64 (relL2PerSample's definition). */
export function relL2Of(pred: ArrayLike<number>[], truth: ArrayLike<number>[]): number {
  let num = 0, den = 0;
  truth.forEach((t, c) => {
    const p = pred[c]!;
    for (let i = 0; i < t.length; i++) { num += (p[i]! - t[i]!) ** 2; den += t[i]! ** 2; }
  });
  return Math.sqrt(num) / (Math.sqrt(den) + REL_EPS);
}

/** How far the input's physical channels lie from the run's training inputs (input-distance.ts). */
export function distanceOf(run: PlaygroundRun, f: PlaygroundFields): PlaygroundPrediction['distance'] {
  return inputDistance(run.profile, f.channels.slice(0, run.inChannels));
}

/** The run's prediction for a checked input, decoded to physical units, one array per target channel. */
export async function predictInput(run: PlaygroundRun, f: PlaygroundFields): Promise<{ channels: Float32Array[]; ms: number }> {
  const x = encodeInput(run, f);
  const t0 = performance.now();
  const y = await predictBatched(run.model, x, run.outChannels, 1);
  const ms = performance.now() - t0;
  const n = run.normalizer;
  const k = n.applied ? n.y.std + n.eps : 1, m = n.applied ? n.y.mean : 0;
  const P = y.data.length / run.outChannels;
  const channels = Array.from({ length: run.outChannels }, (_, c) => Float32Array.from({ length: P }, (_, p) => y.data[p * run.outChannels + c]! * k + m));
  return { channels, ms };
}

/** Channels (one array per channel, row-major over grid) as one channels-last sample [1, ...grid, C]. */
function channelsLast(channels: readonly ArrayLike<number>[], grid: readonly number[]): { data: Float64Array; shape: number[] } {
  const P = grid.reduce((a, b) => a * b, 1), C = channels.length;
  const data = new Float64Array(P * C);
  channels.forEach((ch, c) => { for (let p = 0; p < P; p++) data[p * C + c] = ch[p]!; });
  return { data, shape: [1, ...grid, C] };
}

/**
 * The prediction's diagnostics as the evaluation computes them for a sample (diagnosticsOf): its
 * physics check with the truth's beside it, and with a truth its error spectrum.
 */
export function predictionDiagnostics(run: PlaygroundRun, input: PlaygroundFields, prediction: readonly ArrayLike<number>[], truth: PlaygroundFields | undefined): SplitDiagnostics {
  const g = input.grid;
  return diagnosticsOf(channelsLast(input.channels.slice(0, run.inChannels), g), channelsLast(prediction, g), truth ? channelsLast(truth.channels, g) : null, run.benchmark, run.generator);
}
