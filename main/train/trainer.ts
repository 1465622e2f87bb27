// The training loop of the protocol (docs/protocol.md): epochs of seeded-shuffled
// batches, micro-batches whose gradients add up to the whole batch's, global-norm clipping,
// PyTorch-exact AdamW, StepLR stepped per epoch, validation every epoch in both relL2 conventions.
// No I/O here: ./runner.ts stores metrics and checkpoints; this file is what the tests drive.
import * as tf from '../ops/tf';
import type { TrainConfig } from './config';
import type { StepMetrics, EpochMetrics } from '../runs/run-records';
import type { NeuralOperator } from '../model/types';
import { createModel, modelEntry } from '../model/registry';
import { AdamW } from './adamw';
import { clipCoef, flatNorm } from './clip';
import { concatFlat } from '../ops/concat-flat';
import { StepLR } from './schedule';
import { Rng, type RngState } from './rng';
import type { NormStats } from './loss';
import { evaluateSplit, type SplitMetrics, type BlockStats } from './evaluate';
import { supportsBlockCheckpointing } from './recompute';
import { predictTrain, shareGradientTensors, type GradOptions, type ShareGradTensors } from './batch-grads';
import { checkDeviceLost, readValues } from '../ops/backend';
import { ParallelGradients } from './parallel-grads';
import type { AdamWState } from './adamw';
import type { CheckpointData, CheckpointState } from '../runs/checkpoint';
import { loadStateDict } from '../runs/state-dict';
import { autoregressiveSpec, countOf, gatherRows, targetStats, type TrainData, type TrainSplit } from './data';

/** What `relL2` means in train and validation records (both use it). */
export const RELL2_DEFINITION = {
  operator: 'mean over samples of ||pred - y|| / ||y|| on normalized fields (the paper\'s validation relL2)',
  autoregressive: 'mean over samples and over the T_out rollout steps of the per-step relL2 on normalized fields (the release\'s "one-step", the paper\'s Navier-Stokes number)',
} as const;

/** One optimizer step as metrics.jsonl stores it. */
export type StepRecord = StepMetrics;
/** One epoch as metrics.jsonl stores it. */
export type EpochRecord = EpochMetrics;
export type { SplitMetrics, BlockStats };

export class NonFiniteError extends Error {
  constructor(readonly what: 'loss' | 'gradient', readonly epoch: number, readonly step: number, value: number) {
    super(`non-finite ${what} (${value}) at epoch ${epoch}, step ${step}`);
    this.name = 'NonFiniteError';
  }
}

export interface TrainerState {
  epoch: number;
  globalStep: number;
  rng: RngState;
  best: { epoch: number; valRelL2: number; testRelL2?: number; testRelL2Decoded?: number } | null;
}

/** Builds the model a run config describes for the given data (channel counts come from the data). */
export function modelFor(config: TrainConfig, data: TrainData): NeuralOperator {
  return createModel(config.model.kind, modelConfigFor(config, data));
}

/** The model registry's config for a run (data-parallel workers build their replicas from it). */
export function modelConfigFor(config: TrainConfig, data: TrainData): Record<string, unknown> {
  const ar = autoregressiveSpec(data);
  const cin = data.train.x.shape[data.train.x.shape.length - 1]!;
  const cout = ar ? 1 : data.train.y.shape[data.train.y.shape.length - 1]!;
  const benchmark = (config.data as { benchmark?: string }).benchmark;
  return modelEntry(config.model.kind).fromRun(config.model, {
    dims: data.manifest.grid.length,
    inChannels: cin,
    outChannels: cout,
    seed: config.seed,
    grid: data.manifest.grid,
    ...(benchmark ? { benchmark } : {}),
  });
}

const yieldToEvents = () => new Promise<void>((r) => setImmediate(r));

export class Trainer {
  readonly model: NeuralOperator;
  readonly opt: AdamW;
  readonly sched: StepLR;
  rng: Rng;
  epoch = 0;
  globalStep = 0;
  best: { epoch: number; valRelL2: number; testRelL2?: number; testRelL2Decoded?: number } | null = null;
  microBatch: number;
  /** LiNO blocks recomputed during backward (memory.ts decides when). */
  checkpointBlocks: boolean;
  /** Data-parallel helper threads (config.workers > 1), set by the runner; closed by dispose(). */
  parallel: ParallelGradients | null = null;
  private readonly ar: { tIn: number; tOut: number } | null;
  private readonly yStats: NormStats;
  private peakRss = 0;

  constructor(readonly config: TrainConfig, readonly data: TrainData, readonly backend: string, opts: { microBatch?: number; model?: NeuralOperator; checkpointBlocks?: boolean } = {}) {
    this.model = opts.model ?? modelFor(config, data);
    this.opt = new AdamW(this.model.variables, config.optimizer);
    this.sched = new StepLR(config.optimizer.lr, config.schedule);
    this.rng = new Rng(config.seed);
    this.microBatch = Math.max(1, Math.min(opts.microBatch ?? config.batchSize, config.batchSize));
    this.checkpointBlocks = (opts.checkpointBlocks ?? config.checkpointBlocks === true) && supportsBlockCheckpointing(this.model);
    this.ar = autoregressiveSpec(data);
    this.yStats = targetStats(data);
    if (countOf(data.train) < 1) throw new Error('training split is empty');
  }

  get stepsPerEpoch(): number {
    return Math.ceil(countOf(this.data.train) / this.config.batchSize);
  }

  private tensors(split: TrainSplit, rows: readonly number[]): { x: tf.Tensor; y: tf.Tensor } {
    const gx = gatherRows(split.x, rows);
    const gy = gatherRows(split.y, rows);
    return { x: tf.tensor(gx.data, gx.shape, 'float32'), y: tf.tensor(gy.data, gy.shape, 'float32') };
  }

  private get gradOptions(): GradOptions {
    return { ar: this.ar, microBatch: this.microBatch, checkpointBlocks: this.checkpointBlocks, rolloutCheckpointing: this.config.rollout.checkpointing };
  }

  /** The training forward (rollout or operator, with the run's checkpointing) of x. */
  predict(x: tf.Tensor, checkpoint: boolean): tf.Tensor {
    return predictTrain(this.model, x, { ...this.gradOptions, rolloutCheckpointing: checkpoint });
  }

  /** Gradients of `rows`' terms of the objective of a batch of `batchSize` samples (this thread). */
  private shareGrads(rows: readonly number[], batchSize: number): ShareGradTensors {
    return shareGradientTensors(this.model, rows.length, batchSize, (i, k) => this.tensors(this.data.train, rows.slice(i, i + k)), this.gradOptions);
  }

  /**
   * Gradients of the batch objective over `rows`, accumulated over micro-batches.
   * Returns grads keyed by state_dict name (caller disposes), the batch loss and mean relL2.
   */
  async computeGrads(rows: readonly number[]): Promise<{ grads: Map<string, tf.Tensor>; loss: number; relL2: number }> {
    const r = await this.computeShare(rows);
    const both = tf.stack([r.loss, r.relSum]);
    tf.dispose([r.loss, r.relSum]);
    const [loss, relSum] = await readValues(both);
    both.dispose();
    return { grads: r.grads, loss: loss!, relL2: relSum! / (rows.length * this.relSteps) };
  }

  /** This thread's gradient, or the data-parallel one (config.workers > 1): same batch gradient. */
  private async computeShare(rows: readonly number[]): Promise<ShareGradTensors> {
    if (!this.parallel) return this.shareGrads(rows, rows.length);
    const own = async (share: readonly number[]) => {
      const t = this.shareGrads(share, rows.length);
      const [loss, relSum] = [(await readValues(t.loss))[0]!, (await readValues(t.relSum))[0]!];
      tf.dispose([t.loss, t.relSum]);
      return { grads: t.grads, loss, relSum };
    };
    const r = await this.parallel.compute(this.model, rows, (share) => ({ x: gatherRows(this.data.train.x, share), y: gatherRows(this.data.train.y, share) }), own);
    return { grads: r.grads, loss: tf.scalar(r.loss), relSum: tf.scalar(r.relSum) };
  }

  /**
   * The objective sums relL2 over the rollout steps; the reported train relL2 is the mean over steps
   * (the release's "one-step", RELL2_DEFINITION), on the same scale as validation.
   */
  private get relSteps(): number {
    return this.ar?.tOut ?? 1;
  }

  /** One optimizer step on `rows` (across the data-parallel threads when there are); throws NonFiniteError before touching the weights. */
  async step(rows: readonly number[]): Promise<StepRecord> {
    const t0 = performance.now();
    return this.applyStep(await this.computeShare(rows), rows.length, t0);
  }

  /**
   * Clip and AdamW at the scheduler's lr; the same for one thread and data-parallel gradients.
   * The gradients are concatenated into one flat tensor; the loss, relL2 sum and gradient norm are
   * read together, once (the host AdamW, on cpu, reads the flat gradient in the same read).
   */
  private async applyStep(share: ShareGradTensors, n: number, t0: number): Promise<StepRecord> {
    const lr = this.sched.lr;
    const nextStep = this.globalStep + 1;
    const keys = this.opt.keys;
    let flat: tf.Tensor | null = null;
    try {
      // a parameter the forward did not use has no gradient: zeros for the norm, no update (PyTorch's grad None)
      const missing = keys.some((k) => !share.grads.has(k));
      const { f, stats } = tf.tidy(() => {
        const f = concatFlat(keys.map((k) => share.grads.get(k) ?? tf.zeros([this.model.variables.get(k)!.size])));
        const s = tf.stack([share.loss, share.relSum, flatNorm(f)]);
        return { f, stats: this.opt.device ? s : tf.concat([f, s]) };
      });
      flat = f;
      let values: Float32Array;
      try {
        values = await readValues(stats);
      } finally {
        stats.dispose();
      }
      const [loss, relSum, gradNorm] = [...values.subarray(values.length - 3)] as [number, number, number];
      if (!Number.isFinite(loss)) throw new NonFiniteError('loss', this.epoch + 1, nextStep, loss);
      if (!Number.isFinite(gradNorm)) throw new NonFiniteError('gradient', this.epoch + 1, nextStep, gradNorm);
      const coef = this.config.clipNorm > 0 ? clipCoef(gradNorm, this.config.clipNorm) : 1;
      if (missing) {
        const scaled = new Map([...share.grads].map(([k, g]) => [k, coef < 1 ? tf.mul(g, coef) : g]));
        try {
          await this.opt.apply(scaled, lr);
        } finally {
          if (coef < 1) tf.dispose([...scaled.values()]);
        }
      } else {
        // the clip (torch: g.mul_(clip_coef_clamped)) inside the update
        await this.opt.applyFlat(this.opt.device ? flat : values.subarray(0, values.length - 3), lr, coef);
      }
      checkDeviceLost();
      this.globalStep = nextStep;
      const rss = process.memoryUsage().rss;
      if (rss > this.peakRss) this.peakRss = rss;
      return { type: 'step', epoch: this.epoch + 1, step: nextStep, loss, relL2: relSum / (n * this.relSteps), lr, gradNorm, stepMs: performance.now() - t0 };
    } finally {
      flat?.dispose();
      tf.dispose([...share.grads.values(), share.loss, share.relSum]);
    }
  }

  /** Metrics over a split (./evaluate.ts), batched by the micro-batch size; with blocks, alpha statistics too. */
  async evaluateSplit(split: TrainSplit, withBlocks = false): Promise<{ metrics: SplitMetrics; blocks: BlockStats[] }> {
    const ev = await evaluateSplit(this.model, split, {
      yStats: this.yStats,
      batchSize: this.microBatch,
      ...(this.ar ? { autoregressive: { tIn: this.ar.tIn, steps: this.ar.tOut } } : {}),
      blocks: withBlocks,
    });
    return { metrics: ev.metrics, blocks: ev.blocks ?? [] };
  }

  /**
   * One epoch: shuffle, steps (onStep after each; `between` awaited between steps for pause,
   * cancellation and event-loop turns), validation, scheduler step. Returns the epoch record.
   */
  async runEpoch(hooks: { onStep?: (s: StepRecord) => void; between?: () => Promise<void>; totalEpochs?: number } = {}): Promise<EpochRecord> {
    const t0 = performance.now();
    const n = countOf(this.data.train);
    const perm = this.rng.permutation(n);
    let lossSum = 0, relSum = 0, batches = 0;
    for (let i = 0; i < n; i += this.config.batchSize) {
      await (hooks.between ? hooks.between() : yieldToEvents());
      const rows = perm.slice(i, i + this.config.batchSize);
      const rec = await this.step(rows);
      lossSum += rec.loss;
      relSum += rec.relL2;
      batches++;
      hooks.onStep?.(rec);
    }
    const trainSeconds = (performance.now() - t0) / 1000;
    const lrUsed = this.sched.lr;
    this.epoch += 1;
    const { metrics: val, blocks } = await this.evaluateSplit(this.data.val, true);
    const test = this.data.test && countOf(this.data.test) > 0 ? (await this.evaluateSplit(this.data.test)).metrics : undefined;
    const isBest = !this.best || val.relL2 < this.best.valRelL2;
    if (isBest) this.best = { epoch: this.epoch, valRelL2: val.relL2, ...(test ? { testRelL2: test.relL2, testRelL2Decoded: test.relL2Decoded } : {}) };
    this.sched.step();
    const epochSeconds = (performance.now() - t0) / 1000;
    const remaining = Math.max(0, (hooks.totalEpochs ?? this.config.epochs) - this.epoch);
    const rss = process.memoryUsage().rss;
    if (rss > this.peakRss) this.peakRss = rss;
    return {
      type: 'epoch',
      epoch: this.epoch,
      lr: lrUsed,
      train: { loss: lossSum / batches, relL2: relSum / batches },
      relL2Definition: this.ar ? RELL2_DEFINITION.autoregressive : RELL2_DEFINITION.operator,
      val,
      ...(test ? { test } : {}),
      blocks,
      best: isBest,
      bestEpoch: this.best!.epoch,
      bestValRelL2: this.best!.valRelL2,
      ...(this.best!.testRelL2 !== undefined ? { bestTestRelL2: this.best!.testRelL2, bestTestRelL2Decoded: this.best!.testRelL2Decoded! } : {}),
      samplesPerSec: n / Math.max(1e-9, trainSeconds),
      epochSeconds,
      etaSeconds: remaining * epochSeconds,
      peakRssBytes: this.peakRss,
      tfBytes: tf.memory().numBytes,
      backend: this.backend,
    };
  }

  getState(): TrainerState {
    return { epoch: this.epoch, globalStep: this.globalStep, rng: this.rng.getState(), best: this.best };
  }

  setState(s: TrainerState): void {
    this.epoch = s.epoch;
    this.globalStep = s.globalStep;
    this.rng = new Rng(s.rng);
    this.best = s.best;
  }

  /**
   * Starts workers - 1 data-parallel helper threads (config.workers > 1) with this run's model and
   * gradient options; every later step splits its batch between them and this thread.
   */
  async startWorkers(workers: number): Promise<ParallelGradients> {
    this.parallel = await ParallelGradients.create(workers, this.config.model.kind, modelConfigFor(this.config, this.data), this.backend, this.gradOptions);
    return this.parallel;
  }

  /** What checkpoints/<name> holds of this trainer: state.json and the AdamW moments. */
  async checkpointState(metricsRecords: number): Promise<{ state: CheckpointState; optimizer: AdamWState }> {
    const optimizer = await this.opt.getState();
    const o = this.opt;
    const state: CheckpointState = {
      format: 'lino-checkpoint',
      version: 1,
      epoch: this.epoch,
      globalStep: this.globalStep,
      optimizer: { name: 'adamw', step: optimizer.step, lr: o.lr, weightDecay: o.weightDecay, beta1: o.beta1, beta2: o.beta2, eps: o.eps },
      scheduler: { name: 'steplr', ...this.sched.getState(), stepSize: this.config.schedule.stepSize, gamma: this.config.schedule.gamma },
      rng: this.rng.getState(),
      normalizer: this.data.manifest.normalization,
      best: this.best,
      backend: this.backend,
      savedAt: new Date().toISOString(),
      metricsRecords,
    };
    return { state, optimizer };
  }

  /** Puts a checkpoint back (weights, AdamW moments, scheduler, shuffling, counters); `dir` names its files in errors. */
  restore(ckpt: CheckpointData, dir: string): void {
    const tensors = new Map([...ckpt.weights].map(([k, e]) => [k, { dtype: 'F32' as const, shape: [...e.shape], bytes: new Uint8Array(e.data.buffer, e.data.byteOffset, e.data.byteLength) }]));
    loadStateDict(this.model, { tensors, metadata: {} }, `${dir}/weights.safetensors`);
    this.opt.setState({ step: ckpt.state.optimizer.step, expAvg: ckpt.expAvg, expAvgSq: ckpt.expAvgSq }, `${dir}/optimizer.safetensors`);
    this.sched.setState(ckpt.state.scheduler);
    this.setState({ epoch: ckpt.state.epoch, globalStep: ckpt.state.globalStep, rng: ckpt.state.rng as RngState, best: ckpt.state.best });
  }

  dispose(): void {
    void this.parallel?.close();
    this.parallel = null;
    this.opt.dispose();
    this.model.dispose();
  }
}
