// Evaluation of a checkpoint on a dataset split: per-sample errors in both relL2 conventions,
// sortable (best / median / worst sample), decoded predictions for export, Navier-Stokes rollouts
// of any length with per-step mean and std of relL2 on decoded fields, and resolution transfer
// (the same model evaluated on data prepared at other resolutions, normalized with the
// TRAINING statistics from the checkpoint, coordinates recomputed for each grid).
import * as tf from '@tensorflow/tfjs';
import { readValues } from '../ops/backend';
import type { NeuralOperator } from '../model/types';
import { decode, relL2PerSample, relL2DecodedPerSample, type NormStats } from './loss';
import { meanOverSteps, rollout, stepRelL2 } from './rollout';
import { countOf, gatherRows, type TrainSplit } from './data';
import type { SplitMetrics } from './trainer';

export interface SampleError {
  index: number;
  relL2: number;
  relL2Decoded: number;
  mse: number;
}

export interface SplitEvaluation {
  grid: number[];
  n: number;
  metrics: SplitMetrics;
  perSample: SampleError[];
  /** Indices sorted by relL2 (normalized), best first. */
  order: number[];
  best: number;
  median: number;
  worst: number;
  /** Decoded predictions [n, ...grid, C] when asked for. */
  predictions?: { data: Float32Array; shape: number[] };
  /** Autoregressive: relL2 (decoded) of each sample at each rollout step, [n][T]. */
  sampleSteps?: number[][];
}

export interface EvaluateOptions {
  yStats: NormStats;
  batchSize?: number;
  /** Autoregressive: history length and rollout steps (<= target frames). */
  autoregressive?: { tIn: number; steps: number };
  keepPredictions?: boolean;
}

export async function evaluateSplit(model: NeuralOperator, split: TrainSplit, o: EvaluateOptions): Promise<SplitEvaluation> {
  const n = countOf(split);
  const bs = Math.max(1, o.batchSize ?? 4);
  const grid = [...split.x.shape.slice(1, -1)];
  const perSample: SampleError[] = [];
  const ar = o.autoregressive;
  const T = ar ? Math.min(ar.steps, split.y.shape[split.y.shape.length - 1]!) : 0;
  if (ar && ar.steps > T) throw new Error(`evaluate: rollout of ${ar.steps} steps asked, the targets hold ${T} frames`);
  const stepVals: number[][] = Array.from({ length: T }, () => []);
  const sampleSteps: number[][] = [];
  let stepNormSum = 0, wholeSum = 0, wholeDecSum = 0;
  const cOut = ar ? T : split.y.shape[split.y.shape.length - 1]!;
  const per = grid.reduce((a, b) => a * b, 1) * cOut;
  const preds = o.keepPredictions ? new Float32Array(n * per) : undefined;
  for (let i = 0; i < n; i += bs) {
    const rows = Array.from({ length: Math.min(bs, n - i) }, (_, k) => i + k);
    const gx = gatherRows(split.x, rows);
    const gy = gatherRows(split.y, rows);
    const t = tf.tidy(() => {
      const x = tf.tensor(gx.data, gx.shape, 'float32');
      let y = tf.tensor(gy.data, gy.shape, 'float32');
      let pred: tf.Tensor;
      if (ar) {
        if (T < y.shape[y.rank - 1]!) y = tf.slice(y, new Array(y.rank).fill(0), y.shape.map((s, k) => (k === y.rank - 1 ? T : s)));
        pred = rollout(model, x, { tIn: ar.tIn, tOut: T, checkpoint: false });
      } else {
        pred = model.forward(x).y;
      }
      const whole = relL2PerSample(pred, y);
      const wholeDec = relL2DecodedPerSample(pred, y, o.yStats);
      const mse = tf.mean(tf.square(tf.sub(pred, y)), [...Array(pred.rank - 1).keys()].map((k) => k + 1));
      const steps = ar ? stepRelL2(decode(pred, o.yStats), decode(y, o.yStats)) : [];
      const stepsNorm = ar ? stepRelL2(pred, y) : [];
      const dec = preds ? decode(pred, o.yStats) : undefined;
      return { whole, wholeDec, mse, steps, stepsNorm, dec };
    });
    const owned = [t.whole, t.wholeDec, t.mse, ...t.steps, ...t.stepsNorm, ...(t.dec ? [t.dec] : [])];
    let r;
    try {
      const whole = await readValues(t.whole), wholeDec = await readValues(t.wholeDec);
      const steps = await Promise.all(t.steps.map((v) => readValues(v))), stepsNorm = await Promise.all(t.stepsNorm.map((v) => readValues(v)));
      r = {
        whole, wholeDec, mse: await readValues(t.mse), steps, stepsNorm,
        // autoregressive: per sample the mean over the steps, as the trainer reports it (RELL2_DEFINITION)
        rel: ar ? meanOverSteps(stepsNorm, rows.length) : whole,
        relDec: ar ? meanOverSteps(steps, rows.length) : wholeDec,
        dec: t.dec ? await readValues(t.dec) : undefined,
      };
    } finally {
      tf.dispose(owned);
    }
    for (const v of r.whole) wholeSum += v;
    for (const v of r.wholeDec) wholeDecSum += v;
    rows.forEach((row, k) => perSample.push({ index: row, relL2: r.rel[k]!, relL2Decoded: r.relDec[k]!, mse: r.mse[k]! }));
    r.steps.forEach((s, k) => stepVals[k]!.push(...s));
    if (ar) rows.forEach((_, k) => sampleSteps.push(r.steps.map((s) => s[k]!)));
    r.stepsNorm.forEach((s) => { for (const v of s) stepNormSum += v; });
    if (preds && r.dec) preds.set(r.dec, i * per);
  }
  const mean = (v: number[]) => v.reduce((a, b) => a + b, 0) / Math.max(1, v.length);
  const std = (v: number[]) => { const m = mean(v); return Math.sqrt(mean(v.map((q) => (q - m) ** 2))); };
  const metrics: SplitMetrics = {
    mse: mean(perSample.map((p) => p.mse)),
    relL2: mean(perSample.map((p) => p.relL2)),
    relL2Decoded: mean(perSample.map((p) => p.relL2Decoded)),
  };
  if (ar) {
    metrics.steps = { mean: stepVals.map(mean), std: stepVals.map(std) };
    metrics.stepMeanRelL2 = stepNormSum / Math.max(1, n * T);
    metrics.rolloutRelL2 = wholeSum / Math.max(1, n);
    metrics.rolloutRelL2Decoded = wholeDecSum / Math.max(1, n);
  }
  const order = [...perSample].sort((a, b) => a.relL2 - b.relL2).map((p) => p.index);
  return {
    grid,
    n,
    metrics,
    perSample,
    order,
    best: order[0] ?? -1,
    median: order[Math.floor((order.length - 1) / 2)] ?? -1,
    worst: order[order.length - 1] ?? -1,
    ...(preds ? { predictions: { data: preds, shape: [n, ...grid, cOut] } } : {}),
    ...(ar ? { sampleSteps } : {}),
  };
}
