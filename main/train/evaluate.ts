// Evaluation of a checkpoint on a dataset split: per-sample errors in both relL2 conventions,
// sortable (best / median / worst sample), decoded predictions for export, Navier-Stokes rollouts
// of any length with per-step mean and std of relL2 on decoded fields, and resolution transfer
// (the same model evaluated on data prepared at other resolutions, normalized with the
// TRAINING statistics from the checkpoint, coordinates recomputed for each grid). The Trainer's
// validation runs through here too, with the LiNO gate statistics (blocks).
import * as tf from '../ops/tf';
import { readValues } from '../ops/backend';
import type { NeuralOperator } from '../model/types';
import { decode, relL2PerSample, relL2DecodedPerSample, type NormStats } from './loss';
import { meanOverSteps, rollout, rolloutWithDiagnostics, stepRelL2 } from './rollout';
import { countOf, gatherRows, type TrainSplit } from './data';
import { readScalars } from '../model/lino/params';
import type { z } from 'zod';
import type { SplitMetrics as SplitMetricsSchema, EpochMetrics } from '../runs/run-records';

/** A split's metrics (the contract's SplitMetrics; RELL2_DEFINITION in trainer.ts says what relL2 is). */
export type SplitMetrics = z.infer<typeof SplitMetricsSchema>;
/** One block's gate weights alpha per component (mean and std over the samples) and its scalars. */
export type BlockStats = EpochMetrics['blocks'][number];

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
  /** With `blocks`: per block, alpha statistics over every sample (autoregressive: and every step). */
  blocks?: BlockStats[];
}

export interface EvaluateOptions {
  yStats: NormStats;
  batchSize?: number;
  /** Autoregressive: history length and rollout steps (<= target frames). */
  autoregressive?: { tIn: number; steps: number };
  keepPredictions?: boolean;
  /** Gate statistics of every block (models with diagnostics; the Trainer's validation). */
  blocks?: boolean;
}

type Diagnostics = { alpha: tf.Tensor2D; components: string[]; scalars: Record<string, number> }[];

/** The prediction of a batch; with diagnostics, every rollout step's (or the forward's) blocks. */
function predictWithBlocks(model: NeuralOperator, x: tf.Tensor, ar: { tIn: number; tOut: number } | null, blocks: boolean): { pred: tf.Tensor; perStep: Diagnostics[] } {
  if (ar && blocks) {
    const r = rolloutWithDiagnostics(model, x, ar);
    return { pred: r.pred, perStep: r.steps };
  }
  if (ar) return { pred: rollout(model, x, { ...ar, checkpoint: false }), perStep: [] };
  const f = model.forward(x, { diagnostics: blocks });
  return { pred: f.y, perStep: f.diagnostics ? [f.diagnostics] : [] };
}

/** alphas[block] = one row per sample (autoregressive: per sample and step); tensors not disposed. */
async function readAlphas(perStep: tf.Tensor2D[][]): Promise<number[][][]> {
  const alphas: number[][][] = [];
  for (const blocks of perStep) {
    for (const [b, a] of blocks.entries()) {
      const vals = [...(await readValues(a))];
      const K = a.shape[1]!;
      for (let q = 0; q < a.shape[0]!; q++) (alphas[b] ??= []).push(vals.slice(q * K, (q + 1) * K));
    }
  }
  return alphas;
}

const mean = (v: number[]) => v.reduce((a, b) => a + b, 0) / Math.max(1, v.length);
const std = (v: number[]) => { const m = mean(v); return Math.sqrt(mean(v.map((q) => (q - m) ** 2))); };

function blockStats(alphaRows: number[][][], comps: string[][], scalars: Record<string, number>[]): BlockStats[] {
  return alphaRows.map((rowsOfBlock, b) => {
    const K = rowsOfBlock[0]?.length ?? 0;
    const cols = Array.from({ length: K }, (_, k) => rowsOfBlock.map((r) => r[k]!));
    return { components: comps[b] ?? [], alphaMean: cols.map(mean), alphaStd: cols.map(std), scalars: scalars[b] ?? {} };
  });
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
  const alphaRows: number[][][] = [];
  let comps: string[][] = [];
  let scalars: Record<string, number>[] = [];
  // the diagnostics' block scalars come from scalar variables: read them to the host first
  if (o.blocks) await readScalars(model.variables.values());
  for (let i = 0; i < n; i += bs) {
    const rows = Array.from({ length: Math.min(bs, n - i) }, (_, k) => i + k);
    const gx = gatherRows(split.x, rows);
    const gy = gatherRows(split.y, rows);
    const t = tf.tidy(() => {
      const x = tf.tensor(gx.data, gx.shape, 'float32');
      let y = tf.tensor(gy.data, gy.shape, 'float32');
      if (ar && T < y.shape[y.rank - 1]!) y = tf.slice(y, new Array(y.rank).fill(0), y.shape.map((s, k) => (k === y.rank - 1 ? T : s)));
      const { pred, perStep } = predictWithBlocks(model, x, ar ? { tIn: ar.tIn, tOut: T } : null, o.blocks === true);
      const last = perStep[perStep.length - 1];
      const whole = relL2PerSample(pred, y);
      const wholeDec = relL2DecodedPerSample(pred, y, o.yStats);
      const mse = tf.mean(tf.square(tf.sub(pred, y)), [...Array(pred.rank - 1).keys()].map((k) => k + 1));
      const steps = ar ? stepRelL2(decode(pred, o.yStats), decode(y, o.yStats)) : [];
      const stepsNorm = ar ? stepRelL2(pred, y) : [];
      const dec = preds ? decode(pred, o.yStats) : undefined;
      // alpha tensors outlive the forward's tidy: returned here and disposed after the read
      const alphaT = perStep.map((d) => d.map((blk) => blk.alpha));
      return { whole, wholeDec, mse, steps, stepsNorm, dec, alphaT, comps: last?.map((d) => d.components) ?? [], scal: last?.map((d) => d.scalars) ?? [] };
    });
    const owned = [t.whole, t.wholeDec, t.mse, ...t.steps, ...t.stepsNorm, ...(t.dec ? [t.dec] : []), ...t.alphaT.flat()];
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
        alphas: await readAlphas(t.alphaT),
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
    if (r.alphas.length) {
      r.alphas.forEach((a, b) => { (alphaRows[b] ??= []).push(...a); });
      comps = t.comps;
      scalars = t.scal;
    }
  }
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
    ...(o.blocks ? { blocks: blockStats(alphaRows, comps, scalars) } : {}),
  };
}
