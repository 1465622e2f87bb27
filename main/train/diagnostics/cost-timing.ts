// What the three accuracy-against-cost comparisons share (docs/diagnostics.md): the options, the
// machine named in the report, the solver's timed loop, and the timing of a trained run's inference
// at batch 1 and batched with its error against the finest solve. The benchmarks' own parts (what is
// drawn, solved and strided) are darcy-cost.ts, burgers-cost.ts and navier-stokes-cost.ts.
import { cpus } from 'node:os';
import * as tf from '../../ops/tf';
import { readValues } from '../../ops/backend';
import { encodeInput, relL2Of } from '../playground-predict';
import { predictBatched } from '../predict-batched';
import { rollout } from '../rollout';
import type { PlaygroundRun } from '../playground-run';
import type { z } from 'zod';
import type { CostReport as CostReportSchema } from './schema';

export type CostReport = z.infer<typeof CostReportSchema>;
export type CostRow = CostReport['rows'][number];
export type CostBenchmark = CostReport['benchmark'];

export interface CostOptions {
  /** Solver grids (empty: a ladder around the first run's grid). */
  resolutions: number[];
  samples: number;
  seed?: number;
  /** Loaded runs (loadPlaygroundRun) whose inference is timed. */
  runs?: PlaygroundRun[];
  /** Samples per batched forward pass (default: all of them). */
  batch?: number;
  onProgress?: (message: string) => void;
  signal?: AbortSignal;
}

/** The relL2 the rows carry: one-shot outputs (Darcy, Burgers) and rollouts (Navier-Stokes). */
export const COST_RELL2 = {
  operator: 'mean over samples of ||u - u_ref|| / (||u_ref|| + 1e-12), decoded (physical units), u_ref the finest solve strided to the row\'s grid',
  rollout: 'mean over samples and over the T_out rolled-out frames of the per-frame ||w - w_ref|| / (||w_ref|| + 1e-12), decoded (physical units), w_ref the finest solve strided to the row\'s grid',
} as const;

export const machineOf = (): CostReport['machine'] => ({ cpu: cpus()[0]?.model ?? 'unknown', cores: cpus().length, backend: tf.getBackend() });

export function checkCancelled(o: CostOptions): void {
  if (o.signal?.aborted) throw new Error('cost: cancelled');
}

/** The resolutions asked for, else `ladder`'s, without repeats, coarsest first; at least one sample. */
export function resolutionsOf(o: CostOptions, ladder: (s: number | undefined) => number[]): number[] {
  const res = [...new Set(o.resolutions.length ? o.resolutions : ladder(o.runs?.[0]?.grid[0]))].sort((a, b) => a - b);
  if (res.length < 1 || o.samples < 1) throw new Error('cost: needs at least one resolution and one sample');
  return res;
}

/** Refuses a grid that is not a power of two in [lo, hi] (the periodic solvers' FFTs). */
export function checkPow2(benchmark: string, s: number, lo: number, hi: number): void {
  if (!Number.isInteger(s) || s < lo || s > hi || (s & (s - 1)) !== 0) throw new Error(`cost: resolution ${s} for ${benchmark}: expected a power of two in ${lo}..${hi} (the solver's FFT grid)`);
}

/** Every r-th point of a periodic field on K points per axis (x = j / K), r = K / s: the generator's striding. */
export function stridePeriodic(a: ArrayLike<number>, K: number, s: number, dims: 1 | 2): Float64Array {
  const r = K / s;
  if (!Number.isInteger(r)) throw new Error(`cost: resolution ${s} does not divide ${K} (the finest grid)`);
  if (dims === 1) return Float64Array.from({ length: s }, (_, j) => a[j * r]!);
  const out = new Float64Array(s * s);
  for (let i = 0; i < s; i++) for (let j = 0; j < s; j++) out[i * s + j] = a[i * r * K + j * r]!;
  return out;
}

/**
 * The solver at one grid: `warmUp` twice untimed (the first calls at a new size compile and tier up:
 * measured, a 64-point Burgers solve took 10x its steady time after one warm-up), then `solve` for
 * every sample timed together; `error(i, out)` is sample i's error against the finest solve (null: this is it).
 */
export function solverRow<T>(s: number, n: number, warmUp: () => void, solve: (i: number) => T, error: (i: number, out: T) => number | null): CostRow {
  warmUp();
  warmUp();
  const t0 = performance.now();
  const outs = Array.from({ length: n }, (_, i) => solve(i));
  const sec = (performance.now() - t0) / 1000 / n;
  let err: number | null = 0;
  for (let i = 0; i < n && err !== null; i++) {
    const e = error(i, outs[i]!);
    err = e === null ? null : err + e / n;
  }
  return { kind: 'solver', name: 'solver', resolution: s, batch: 1, secondsPerSample: sec, relL2: err };
}

/** The run's encoded predictions for x [n, ...grid, C], `batch` samples a pass (a rollout for autoregressive runs): [n, ...grid, C_out]. */
async function predictAll(run: PlaygroundRun, x: { data: Float32Array; shape: number[] }, batch: number): Promise<Float32Array> {
  const ar = run.autoregressive;
  if (!ar) return (await predictBatched(run.model, x, run.outChannels, batch)).data;
  const n = x.shape[0]!, per = x.data.length / n;
  const perOut = (per / x.shape[x.shape.length - 1]!) * ar.tOut;
  const out = new Float32Array(n * perOut);
  for (let i = 0; i < n; i += batch) {
    const m = Math.min(batch, n - i);
    const y = tf.tidy(() => rollout(run.model, tf.tensor(x.data.subarray(i * per, (i + m) * per), [m, ...x.shape.slice(1)], 'float32'), { tIn: ar.tIn, tOut: ar.tOut, checkpoint: false }));
    try {
      out.set(Float32Array.from(await readValues(y)), i * perOut);
    } finally {
      y.dispose();
    }
  }
  return out;
}

/**
 * A run's inference rows: `inputs[i]` are sample i's physical input channels on the run's grid,
 * `truths[i]` the finest solve's target channels strided to it; timed over all samples at batch 1
 * and at `o.batch`, each after an untimed warm-up pass of that batch size; the error is relL2Of over
 * the channels, or for a rollout the mean of the per-frame relL2 (COST_RELL2).
 */
export async function modelRows(run: PlaygroundRun, inputs: ArrayLike<number>[][], truths: ArrayLike<number>[][], o: CostOptions): Promise<CostRow[]> {
  const n = inputs.length;
  const enc = inputs.map((ch) => encodeInput(run, { grid: [...run.grid], channels: ch.map((a) => Array.from(a)) }));
  const per = enc[0]!.data.length;
  const x = { data: new Float32Array(n * per), shape: [n, ...enc[0]!.shape.slice(1)] };
  enc.forEach((e, i) => x.data.set(e.data, i * per));
  const k = run.normalizer.applied ? run.normalizer.y.std + run.normalizer.eps : 1, m = run.normalizer.applied ? run.normalizer.y.mean : 0;
  const C = truths[0]!.length, P = run.grid.reduce((a, b) => a * b, 1);
  const out: CostRow[] = [];
  for (const batch of [...new Set([1, Math.max(1, Math.min(n, o.batch ?? n))])]) {
    checkCancelled(o);
    o.onProgress?.(`timing ${run.runId} (${run.kind}) at batch ${batch}`);
    // warm-up at this batch size: the first pass of a shape allocates and packs, untimed
    await predictAll(run, { data: x.data.subarray(0, batch * per), shape: [batch, ...x.shape.slice(1)] }, batch);
    const t0 = performance.now();
    const y = await predictAll(run, x, batch);
    const sec = (performance.now() - t0) / 1000 / n;
    let err = 0;
    for (let i = 0; i < n; i++) {
      const pred = Array.from({ length: C }, (_, c) => Float64Array.from({ length: P }, (_, p) => y[(i * P + p) * C + c]! * k + m));
      err += (run.autoregressive ? pred.reduce((a, f, c) => a + relL2Of([f], [truths[i]![c]!]) / C, 0) : relL2Of(pred, truths[i]!)) / n;
    }
    out.push({ kind: 'model', name: run.runId, model: run.kind, resolution: run.grid[0]!, batch, secondsPerSample: sec, relL2: err });
  }
  return out;
}
