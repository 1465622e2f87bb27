// A smooth analytic dataset in the trainer's shape (./data.ts TrainData), for smoke tests and the
// 'synthetic' data kind: not a benchmark, not a PDE.
import { Rng } from './rng';
import type { TrainData, TrainSplit } from './data';

function stats(parts: Float32Array[]): { mean: number; std: number } {
  let n = 0, s = 0;
  for (const p of parts) for (const v of p) { s += v; n++; }
  const mean = s / n;
  let ss = 0;
  for (const p of parts) for (const v of p) ss += (v - mean) * (v - mean);
  return { mean, std: Math.sqrt(ss / (n - 1)) };
}

const EPS = 1e-5;

/**
 * A smooth analytic dataset for smoke tests (not a benchmark, not a PDE):
 * operator: a = sum of random low Fourier modes, u = tanh(a) * (1 + x0) + 0.5 * a;
 * autoregressive: frames f_t = sum of random modes travelling with their own speed.
 * Normalized as the pipeline does (scalar mean/std of the training split) with coordinates appended.
 */
type SyntheticSpec = { task: 'operator' | 'autoregressive'; grid: number[]; train: number; val: number; test?: number; seed?: number; tIn?: number; tOut?: number };

export function syntheticData(spec: SyntheticSpec): TrainData {
  const gen = syntheticSteps(spec);
  for (let r = gen.next(); ; r = gen.next()) if (r.done) return r.value;
}

/**
 * syntheticData that gives the event loop a turn every ~20 ms, so a stop (an abort of `signal`)
 * ends a long generation at once instead of after it (the run's memory check bounds its size).
 */
export async function syntheticDataAsync(spec: SyntheticSpec, signal?: AbortSignal): Promise<TrainData> {
  const gen = syntheticSteps(spec);
  let t = performance.now();
  for (let r = gen.next(); ; r = gen.next()) {
    if (r.done) return r.value;
    if (performance.now() - t > 20) {
      await new Promise<void>((res) => setImmediate(res));
      t = performance.now();
    }
    signal?.throwIfAborted();
  }
}

/** The generation, one sample (then one split) per step. */
function* syntheticSteps(spec: SyntheticSpec): Generator<void, TrainData, void> {
  const rng = new Rng(spec.seed ?? 0);
  const grid = spec.grid;
  const P = grid.reduce((a, b) => a * b, 1);
  const D = grid.length;
  const coordsOf = (p: number): number[] => {
    if (D === 1) return [grid[0]! > 1 ? p / (grid[0]! - 1) : 0];
    const i = Math.floor(p / grid[1]!), j = p % grid[1]!;
    return [i / (grid[0]! - 1), j / (grid[1]! - 1)];
  };
  const total = spec.train + spec.val + (spec.test ?? 0);
  const ar = spec.task === 'autoregressive';
  const tIn = spec.tIn ?? 3, tOut = spec.tOut ?? 3;
  const cx = ar ? tIn : 1, cy = ar ? tOut : 1;
  const xs: Float32Array[] = [], ys: Float32Array[] = [];
  for (let s = 0; s < total; s++) {
    const modes = Array.from({ length: 3 }, () => ({
      k: Array.from({ length: D }, () => 1 + rng.int(2)),
      ph: Array.from({ length: D }, () => rng.next() * 2 * Math.PI),
      amp: rng.next() * 2 - 1,
      c: rng.next() * 0.2 - 0.1,
    }));
    const field = (c: number[], t: number) => {
      let v = 0;
      for (const m of modes) {
        let prod = m.amp;
        for (let d = 0; d < D; d++) prod *= Math.sin(Math.PI * m.k[d]! * (c[d]! + m.c * t) + m.ph[d]!);
        v += prod;
      }
      return v;
    };
    const x = new Float32Array(P * cx), y = new Float32Array(P * cy);
    for (let p = 0; p < P; p++) {
      const c = coordsOf(p);
      if (ar) {
        for (let t = 0; t < tIn; t++) x[p * cx + t] = field(c, t);
        for (let t = 0; t < tOut; t++) y[p * cy + t] = field(c, tIn + t);
      } else {
        const a = field(c, 0);
        x[p] = a;
        y[p] = Math.tanh(a) * (1 + c[0]!) + 0.5 * a;
      }
    }
    xs.push(x);
    ys.push(y);
    yield;
  }
  const sx = stats(xs.slice(0, spec.train)), sy = ar ? sx : stats(ys.slice(0, spec.train));
  const pack = (from: number, n: number): TrainSplit => {
    const X = new Float32Array(n * P * (cx + D)), Y = new Float32Array(n * P * cy);
    for (let s = 0; s < n; s++) {
      const x = xs[from + s]!, y = ys[from + s]!;
      for (let p = 0; p < P; p++) {
        const o = (s * P + p) * (cx + D);
        for (let c = 0; c < cx; c++) X[o + c] = (x[p * cx + c]! - sx.mean) / (sx.std + EPS);
        const co = coordsOf(p);
        for (let d = 0; d < D; d++) X[o + cx + d] = co[d]!;
        for (let c = 0; c < cy; c++) Y[(s * P + p) * cy + c] = (y[p * cy + c]! - sy.mean) / (sy.std + EPS);
      }
    }
    return { x: { data: X, shape: [n, ...grid, cx + D] }, y: { data: Y, shape: [n, ...grid, cy] } };
  };
  const train = pack(0, spec.train);
  yield;
  const val = pack(spec.train, spec.val);
  yield;
  const test = spec.test ? pack(spec.train + spec.val, spec.test) : undefined;
  return {
    manifest: {
      id: `synthetic-${spec.task}-${grid.join('x')}-${spec.seed ?? 0}`,
      grid: [...grid],
      coordChannels: D,
      normalization: { x: sx, y: sy, eps: EPS, applied: true },
      ...(ar ? { parameters: { ns: { tIn, tOut, normalizer: 'shared' } } } : {}),
    },
    train,
    val,
    ...(test ? { test } : {}),
  };
}
