// Accuracy against cost on one machine in one process (docs/diagnostics.md): the built-in Darcy
// solver at several resolutions, each timed and compared with the finest solve, and trained models'
// inference at batch 1 and batched, compared with the same finest solve. Every coefficient is drawn on
// the finest grid and strided to the coarser ones, as the generator makes its lower resolutions.
import { cpus } from 'node:os';
import { darcyCoefficient, solveGwf, strideOf } from '../../data/generate/darcy';
import { PRESETS, type DarcyParams } from '../../data/generate/presets';
import * as tf from '../../ops/tf';
import { encodeInput, relL2Of } from '../playground-predict';
import { predictBatched } from '../predict-batched';
import type { PlaygroundRun } from '../playground-run';
import type { z } from 'zod';
import type { CostReport as CostReportSchema } from './schema';

export type CostReport = z.infer<typeof CostReportSchema>;
export type CostRow = CostReport['rows'][number];

export interface CostOptions {
  /** Solver grids (empty: `ladder` around the first run's grid). */
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

const stride2 = (a: ArrayLike<number>, K: number, s: number): Float64Array => {
  const r = strideOf(K, s);
  const out = new Float64Array(s * s);
  for (let i = 0; i < s; i++) for (let j = 0; j < s; j++) out[i * s + j] = a[i * r * K + j * r]!;
  return out;
};

/**
 * The solver grids when none are given: around the first run's grid s, the grid of half its
 * spacing's stride ((s - 1) / 2 + 1, when whole and >= 8), s itself and twice as fine (2 (s - 1) + 1,
 * up to 421) so that every one strides the finest; without a run 29, 57, 113.
 */
export function ladder(s: number | undefined): number[] {
  if (s === undefined) return [29, 57, 113];
  const out = [s];
  if ((s - 1) % 2 === 0 && (s - 1) / 2 + 1 >= 8) out.unshift((s - 1) / 2 + 1);
  if (2 * (s - 1) + 1 <= 421) out.push(2 * (s - 1) + 1);
  return out;
}

export async function darcyCost(o: CostOptions): Promise<CostReport> {
  const p: DarcyParams = { ...PRESETS.darcy.quick } as DarcyParams;
  const seed = o.seed ?? 1;
  const res = [...new Set(o.resolutions.length ? o.resolutions : ladder(o.runs?.[0]?.grid[0]))].sort((a, b) => a - b);
  if (res.length < 1 || o.samples < 1) throw new Error('cost: needs at least one resolution and one sample');
  const K = res[res.length - 1]!;
  for (const s of res) strideOf(K, s); // refuses a grid that does not stride the finest one, naming both
  const coef = Array.from({ length: o.samples }, (_, i) => darcyCoefficient(seed, i, K, p));
  const rows: CostRow[] = [];
  o.onProgress?.(`solving ${o.samples} samples at ${K}x${K} (the reference)`);
  const fine = coef.map((a) => solveGwf(a, K, { tol: p.tol }).cells);
  for (const s of res) {
    if (o.signal?.aborted) throw new Error('cost: cancelled');
    o.onProgress?.(`timing the solver at ${s}x${s}`);
    const inputs = coef.map((a) => stride2(a, K, s));
    solveGwf(inputs[0]!, s, { tol: p.tol }); // warm-up: the first call compiles
    let err = 0;
    const t0 = performance.now();
    const sols = inputs.map((a) => solveGwf(a, s, { tol: p.tol }).cells);
    const sec = (performance.now() - t0) / 1000 / o.samples;
    sols.forEach((u, i) => { err += relL2Of([u], [stride2(fine[i]!, K, s)]) / o.samples; });
    rows.push({ kind: 'solver', name: 'solver', resolution: s, batch: 1, secondsPerSample: sec, relL2: s === K ? null : err });
  }
  for (const run of o.runs ?? []) {
    if (o.signal?.aborted) throw new Error('cost: cancelled');
    rows.push(...await modelRows(run, coef, fine, K, o));
  }
  return {
    benchmark: 'darcy', samples: o.samples, seed, finest: K, tol: p.tol,
    machine: { cpu: cpus()[0]?.model ?? 'unknown', cores: cpus().length, backend: tf.getBackend() },
    rows,
  };
}

async function modelRows(run: PlaygroundRun, coef: Float64Array[], fine: Float64Array[], K: number, o: CostOptions): Promise<CostRow[]> {
  if (run.benchmark !== 'darcy') throw new Error(`cost: run ${run.runId} was trained on '${run.benchmark}' data, the benchmark is darcy`);
  if (run.grid.length !== 2 || run.grid[0] !== run.grid[1] || run.inChannels !== 1 || run.outChannels !== 1) {
    throw new Error(`cost: run ${run.runId}'s model takes a ${run.grid.join('x')} grid with ${run.inChannels} input channel(s), expected one Darcy coefficient on a square grid`);
  }
  const s = run.grid[0]!;
  strideOf(K, s); // its grid must stride the finest solve's
  const n = coef.length;
  const enc = coef.map((a) => encodeInput(run, { grid: [s, s], channels: [Array.from(stride2(a, K, s))] }));
  const per = enc[0]!.data.length;
  const x = { data: new Float32Array(n * per), shape: [n, ...enc[0]!.shape.slice(1)] };
  enc.forEach((e, i) => x.data.set(e.data, i * per));
  const k = run.normalizer.applied ? run.normalizer.y.std + run.normalizer.eps : 1, m = run.normalizer.applied ? run.normalizer.y.mean : 0;
  const out: CostRow[] = [];
  for (const batch of [...new Set([1, Math.max(1, Math.min(n, o.batch ?? n))])]) {
    o.onProgress?.(`timing ${run.runId} (${run.kind}) at batch ${batch}`);
    // warm-up at this batch size: the first pass of a shape allocates and packs, untimed
    await predictBatched(run.model, { data: x.data.subarray(0, batch * per), shape: [batch, ...x.shape.slice(1)] }, 1, batch);
    const t0 = performance.now();
    const y = await predictBatched(run.model, x, 1, batch);
    const sec = (performance.now() - t0) / 1000 / n;
    let err = 0;
    for (let i = 0; i < n; i++) {
      const pred = Float64Array.from(y.data.subarray(i * s * s, (i + 1) * s * s), (v) => v * k + m);
      err += relL2Of([pred], [stride2(fine[i]!, K, s)]) / n;
    }
    out.push({ kind: 'model', name: run.runId, model: run.kind, resolution: s, batch, secondsPerSample: sec, relL2: err });
  }
  return out;
}
