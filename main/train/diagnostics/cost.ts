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

export interface CostRow {
  kind: 'solver' | 'model';
  /** 'solver' or the run's id. */
  name: string;
  /** The model's kind (lino, fno, deeponet); absent for the solver. */
  model?: string;
  resolution: number;
  /** Samples per forward pass (the solver: 1). */
  batch: number;
  /** Wall seconds per sample, the mean over the samples (after one untimed warm-up). */
  secondsPerSample: number;
  /** Mean relL2 against the finest solve at this resolution's points; null for the finest solve itself. */
  relL2: number | null;
}

export interface CostReport {
  benchmark: 'darcy';
  samples: number;
  seed: number;
  /** The reference: the solve on this grid. */
  finest: number;
  tol: number;
  machine: { cpu: string; cores: number; backend: string };
  rows: CostRow[];
}

export interface CostOptions {
  resolutions: number[];
  samples: number;
  seed?: number;
  /** Loaded runs (loadPlaygroundRun) whose inference is timed. */
  runs?: PlaygroundRun[];
  /** Samples per batched forward pass (default: all of them). */
  batch?: number;
  onProgress?: (message: string) => void;
}

const stride2 = (a: ArrayLike<number>, K: number, s: number): Float64Array => {
  const r = strideOf(K, s);
  const out = new Float64Array(s * s);
  for (let i = 0; i < s; i++) for (let j = 0; j < s; j++) out[i * s + j] = a[i * r * K + j * r]!;
  return out;
};

export async function darcyCost(o: CostOptions): Promise<CostReport> {
  const p: DarcyParams = { ...PRESETS.darcy.quick } as DarcyParams;
  const seed = o.seed ?? 1;
  const res = [...new Set(o.resolutions)].sort((a, b) => a - b);
  if (res.length < 1 || o.samples < 1) throw new Error('cost: needs at least one resolution and one sample');
  const K = res[res.length - 1]!;
  for (const s of res) strideOf(K, s); // refuses a grid that does not stride the finest one, naming both
  const coef = Array.from({ length: o.samples }, (_, i) => darcyCoefficient(seed, i, K, p));
  const rows: CostRow[] = [];
  o.onProgress?.(`solving ${o.samples} samples at ${K}x${K} (the reference)`);
  const fine = coef.map((a) => solveGwf(a, K, { tol: p.tol }).cells);
  for (const s of res) {
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
  for (const run of o.runs ?? []) rows.push(...await modelRows(run, coef, fine, K, o));
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
