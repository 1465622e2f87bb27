// train.calibrate: how long a run would take, measured before it starts. Builds the run's model on
// the backend it would train on, takes one warm-up step and then a few timed optimizer steps on
// random data of the configured shape (the data are not generated or read: their shape is known
// from the configuration, or from a stored dataset's manifest), disposes everything and answers
// ms/step, steps/epoch, s/epoch and the total. Refuses what train.start refuses for memory.
import * as tf from '../ops/tf';
import type { TrainConfig } from './config';
import { resolveParams } from '../data/generate/presets';
import type { BenchmarkName } from '../data/generate/types';
import { releaseOptions } from '../data/pipeline';
import { DatasetStore } from '../data/dataset-store';
import { preflightMemory, syntheticShape, type DataShape } from './memory';
import { refuseBeforeStart } from './runner';
import { Trainer } from './trainer';
import type { TrainData } from './data';
import { Rng } from './rng';

export const CALIBRATION_STEPS = 3;

export interface CalibrationShape {
  shape: DataShape;
  train: number;
  val: number;
  ns?: { tIn: number; tOut: number };
}

export interface Calibration {
  backend: string;
  msPerStep: number;
  /** Timed steps (after one warm-up step); fewer than asked when the time budget ran out. */
  steps: number;
  warmupMs: number;
  stepsPerEpoch: number;
  secondsPerEpoch: number;
  totalSeconds: number;
  epochs: number;
  grid: number[];
  train: number;
  val: number;
  microBatch: number;
  /** What the figure leaves out (validation, data preparation, data-parallel threads). */
  note: string;
}

/** A calibration a newer one replaced, or one cancelled: not an error of the configuration. */
export class CalibrationCancelled extends Error {}

const fail = (field: string, expected: string): never => {
  throw Object.assign(new Error(`train.calibrate: field '${field}': ${expected}`), { field });
};

/** The data a run would train on, from its configuration (or its stored dataset's manifest). */
export function calibrationShape(cfg: TrainConfig, workspace?: string): CalibrationShape {
  const d = cfg.data;
  switch (d.kind) {
    case 'synthetic': {
      const shape = syntheticShape(d);
      return { shape, train: d.train, val: d.val, ...(d.task === 'autoregressive' ? { ns: { tIn: d.tIn, tOut: d.tOut } } : {}) };
    }
    case 'generate': {
      const p = resolveParams(d.benchmark as BenchmarkName, { preset: d.preset, ...(d.samples !== undefined ? { samples: d.samples } : {}), ...(d.generateResolution !== undefined ? { resolution: d.generateResolution } : {}), ...(d.frames !== undefined ? { frames: d.frames } : {}) });
      // the split the run will get (a test split takes its samples from training and validation)
      const rel = releaseOptions(p.benchmark, p.samples, { ...(d.train !== undefined ? { train: d.train } : {}), ...(d.val !== undefined ? { val: d.val } : {}), ...(d.test !== undefined ? { test: d.test } : {}) });
      const split = rel.split as { train?: number; val?: number };
      let train = d.train ?? split.train ?? 1;
      let val = d.val ?? split.val ?? 1;
      // The pipeline keeps the generated grid unless told (or the paper preset, which it strides).
      const r = d.resolution ?? (d.preset === 'paper' ? rel.resolution : undefined);
      const side = (gen: number) => (r === undefined ? gen : Array.isArray(r) ? r[0]! : r);
      switch (p.benchmark) {
        case 'darcy': {
          const s = side(p.resolution);
          return { shape: { grid: [s, s], xChannels: 3, yChannels: 1, outChannels: 1, samples: p.samples, copies: 2 }, train, val };
        }
        case 'burgers':
          return { shape: { grid: [side(p.resolution)], xChannels: 2, yChannels: 1, outChannels: 1, samples: p.samples, copies: 2 }, train, val };
        case 'navier-stokes': {
          const tIn = d.tIn ?? p.tIn, tOut = d.tOut ?? p.tOut;
          const windows = Math.max(1, p.frames - tIn - tOut + 1);
          train *= windows;
          val *= windows;
          const s = side(p.resolution);
          return { shape: { grid: [s, s], xChannels: tIn + 2, yChannels: tOut, outChannels: 1, samples: p.samples, rollout: { tOut }, copies: 2 }, train, val, ns: { tIn, tOut } };
        }
        case 'airfoil':
          return { shape: { grid: [p.ni, p.nj], xChannels: 4, yChannels: 1, outChannels: 1, samples: p.samples, copies: 2 }, train, val };
      }
      return fail('data.benchmark', 'a known benchmark');
    }
    case 'dataset': {
      if (!workspace) return fail('data.id', 'a dataset of the open workspace');
      const m = new DatasetStore(workspace).manifest(d.id);
      const ns = m.parameters.ns;
      return {
        shape: { grid: m.grid, xChannels: m.xChannels.length, yChannels: m.yChannels.length, outChannels: ns ? 1 : m.yChannels.length, samples: m.counts.train + m.counts.val + m.counts.test, copies: 1, ...(ns ? { rollout: { tOut: ns.tOut } } : {}) },
        train: m.counts.train,
        val: m.counts.val,
        ...(ns ? { ns: { tIn: ns.tIn, tOut: ns.tOut } } : {}),
      };
    }
    case 'file':
      return fail('data.kind', "synthetic, generate or dataset: a file's shape is known once it is imported (import it as a dataset, then estimate)");
  }
}

/** `rows` samples of random data of the shape (normalized fields are about N(0, 1)). */
function randomData(c: CalibrationShape, rows: number): TrainData {
  const rng = new Rng(7);
  const points = c.shape.grid.reduce((a, b) => a * b, 1);
  const fill = (n: number) => Float32Array.from({ length: n }, () => rng.next() * 2 - 1);
  const split = () => ({
    x: { data: fill(rows * points * c.shape.xChannels), shape: [rows, ...c.shape.grid, c.shape.xChannels] },
    y: { data: fill(rows * points * c.shape.yChannels), shape: [rows, ...c.shape.grid, c.shape.yChannels] },
  });
  return {
    manifest: {
      grid: c.shape.grid,
      coordChannels: c.shape.grid.length,
      normalization: { x: { mean: 0, std: 1 }, y: { mean: 0, std: 1 }, eps: 1e-5, applied: true },
      ...(c.ns ? { parameters: { ns: c.ns } } : {}),
    },
    train: split(),
    val: split(),
  };
}

export interface CalibrateOptions {
  workspace?: string;
  /** The backend the run would use (the engine's current one, or the configuration's). */
  backend: string;
  steps?: number;
  /** Stop timing after this long (the warm-up alone answers when it took that long). */
  budgetMs?: number;
  signal?: AbortSignal;
}

/** Measures the configuration's step time; throws (with `field`) what train.start would refuse. */
export async function calibrate(cfg: TrainConfig, opts: CalibrateOptions): Promise<Calibration> {
  const backend = opts.backend;
  const early = refuseBeforeStart(cfg, backend);
  if (early) throw Object.assign(new Error(`memory: ${early.message}`), { field: early.field ?? 'config' });
  const c = calibrationShape(cfg, opts.workspace);
  if (c.train < 1) fail('data.train', 'at least 1 training sample');
  const pre = preflightMemory(cfg, backend, c.shape);
  if (!pre.fits) throw Object.assign(new Error(`memory: ${pre.message}`), { field: pre.field ?? 'config' });
  const microBatch = pre.plan?.microBatch ?? cfg.batchSize;
  const rows = Math.min(cfg.batchSize, c.train);
  const steps = Math.max(1, opts.steps ?? CALIBRATION_STEPS);
  const budget = opts.budgetMs ?? 30_000;
  const check = () => {
    if (opts.signal?.aborted) throw new CalibrationCancelled('train.calibrate: cancelled (a newer estimate replaced it)');
  };
  const yieldTurn = () => new Promise<void>((r) => setImmediate(r));
  check();
  const before = tf.memory().numTensors;
  // The trainer owns the model and optimizer: dispose() frees both (and any threads it started).
  const trainer = new Trainer({ ...cfg, workers: 1 }, randomData(c, rows), backend, { microBatch, checkpointBlocks: pre.checkpointBlocks ?? false });
  const batch = Array.from({ length: rows }, (_, i) => i);
  try {
    await yieldTurn();
    check();
    const w0 = performance.now();
    await trainer.step(batch);
    const warmupMs = performance.now() - w0;
    const times: number[] = [];
    const t0 = performance.now();
    while (times.length < steps && (times.length === 0 ? warmupMs < budget : performance.now() - t0 + warmupMs < budget)) {
      await yieldTurn();
      check();
      const s0 = performance.now();
      await trainer.step(batch);
      times.push(performance.now() - s0);
    }
    const sorted = [...times].sort((a, b) => a - b);
    const msPerStep = sorted.length ? sorted[sorted.length >> 1]! : warmupMs;
    const stepsPerEpoch = Math.ceil(c.train / cfg.batchSize);
    // A step on a full batch: rows < batchSize only when the split is smaller than a batch.
    const secondsPerEpoch = (msPerStep * stepsPerEpoch) / 1000;
    return {
      backend,
      msPerStep,
      steps: times.length,
      warmupMs,
      stepsPerEpoch,
      secondsPerEpoch,
      totalSeconds: secondsPerEpoch * cfg.epochs,
      epochs: cfg.epochs,
      grid: c.shape.grid,
      train: c.train,
      val: c.val,
      microBatch,
      note: `training steps only (median of ${times.length} after 1 warm-up); validation of ${c.val} samples per epoch and data preparation come on top${cfg.workers !== 1 ? '; measured on 1 thread (workers not counted)' : ''}`,
    };
  } finally {
    trainer.dispose();
    const left = tf.memory().numTensors - before;
    if (left > 0) process.stderr.write(`train.calibrate: ${left} tensors left after disposing the model\n`);
  }
}
