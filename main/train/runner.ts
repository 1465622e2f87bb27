// A run from its folder to its end: reads config.json, prepares the data, refuses a configuration
// whose memory estimate cannot fit, resumes from checkpoints/last when there is one, trains epoch
// by epoch appending every step and epoch record to metrics.jsonl, writes checkpoints/last (and
// best) at every epoch end, and records the outcome in status.json and events.log.
// Shared by the engine's 'train' job and `lino train`.
import * as tf from '@tensorflow/tfjs';
import { TrainConfig } from '../api/contract';
import type { RunHandle, RunState } from '../runs/run-store';
import { writeJsonAtomic } from '../util/atomic-file';
import { loadCheckpoint, saveCheckpoint, type CheckpointState } from '../runs/checkpoint';
import { loadStateDict, stateDict } from '../runs/safetensors';
import { availableParallelism, totalmem } from 'node:os';
import { Trainer, NonFiniteError, modelConfigFor, type EpochRecord, type StepRecord } from './trainer';
import { ParallelGradients, MAX_WORKERS } from './parallel-grads';
import { loadTrainData } from './data-source';
import { planMemory, type MemoryPlan } from './memory';
import { autoregressiveSpec } from './data';
import { supportsBlockCheckpointing } from './recompute';
import type { TrainData } from './data';

export interface RunHooks {
  signal?: AbortSignal;
  /** Awaited between steps: resolves when the run may continue (pause). */
  waitIfPaused?: () => Promise<void>;
  onStep?: (s: StepRecord) => void;
  onEpoch?: (e: EpochRecord) => void;
  onLog?: (message: string) => void;
  onPlan?: (p: MemoryPlan) => void;
  /** Overrides the data (tests); otherwise loaded from the config's spec. */
  data?: TrainData;
  workspace?: string;
  /** Tests: the run's data-parallel threads once started. */
  onWorkers?: (pool: ParallelGradients) => void;
  /** Stop after this many epochs in this call (tests of resume); the run stays resumable. */
  maxEpochsThisCall?: number;
}

export interface RunOutcome {
  state: RunState;
  reason?: string;
  epoch: number;
  step: number;
  last?: EpochRecord;
}

class StopRequested extends Error {}

export function parseRunConfig(raw: unknown, source = 'config.json'): TrainConfig {
  const r = TrainConfig.safeParse(raw);
  if (!r.success) {
    const i = r.error.issues[0]!;
    throw new Error(`${source}: field '${i.path.join('.') || '(root)'}': ${i.message}`);
  }
  return r.data;
}

export async function trainRun(run: RunHandle, hooks: RunHooks = {}): Promise<RunOutcome> {
  const raw = run.readConfig();
  const cfg = parseRunConfig(raw, run.configPath);
  const backend = tf.getBackend();
  const log = (m: string) => {
    run.log(m);
    hooks.onLog?.(m);
  };
  let trainer: Trainer | null = null;
  let status: { epoch: number; step: number } = { epoch: 0, step: 0 };
  try {
    const data = hooks.data ?? (await loadTrainData(cfg.data, { workspace: hooks.workspace, signal: hooks.signal, onProgress: log }));
    const ar = autoregressiveSpec(data);
    if (!('resolvedData' in raw)) {
      const m = data.manifest;
      writeJsonAtomic(run.configPath, {
        ...raw,
        resolvedData: { id: m.id ?? null, contentHash: m.contentHash ?? null, grid: m.grid, counts: { train: data.train.x.shape[0], val: data.val.x.shape[0], test: data.test?.x.shape[0] ?? 0 }, normalization: m.normalization, autoregressive: ar },
      });
    }
    const probe = new Trainer(cfg, data, backend, { microBatch: 1 });
    const canCheckpointBlocks = probe.checkpointBlocks || supportsBlockCheckpointing(probe.model);
    const input = {
      ...cfg.model,
      inChannels: data.train.x.shape[data.train.x.shape.length - 1]!,
      outChannels: ar ? 1 : data.train.y.shape[data.train.y.shape.length - 1]!,
      params: probe.model.numParams(),
      grid: data.manifest.grid,
      ...(ar ? { rollout: { tOut: ar.tOut, checkpointing: cfg.rollout.checkpointing } } : {}),
    };
    probe.dispose();
    let checkpointBlocks = cfg.checkpointBlocks === true && canCheckpointBlocks;
    let plan = planMemory({ ...input, checkpointBlocks }, cfg.batchSize, backend, cfg.microBatch);
    // 'auto': recompute blocks only when the whole batch (or the configured micro-batch) would not fit otherwise.
    if (cfg.checkpointBlocks === 'auto' && canCheckpointBlocks && (!plan.fits || plan.microBatch < Math.min(cfg.batchSize, cfg.microBatch === 'auto' ? cfg.batchSize : cfg.microBatch))) {
      const withBlocks = planMemory({ ...input, checkpointBlocks: true }, cfg.batchSize, backend, cfg.microBatch);
      if (withBlocks.fits && (!plan.fits || withBlocks.microBatch > plan.microBatch)) {
        plan = withBlocks;
        checkpointBlocks = true;
      }
    }
    hooks.onPlan?.(plan);
    if (!plan.fits) {
      run.writeStatus({ state: 'failed', pid: process.pid, reason: `memory: ${plan.message}`, backend });
      log(`refused before starting: ${plan.message}`);
      return { state: 'failed', reason: plan.message, epoch: 0, step: 0 };
    }
    trainer = new Trainer(cfg, data, backend, { microBatch: plan.microBatch, checkpointBlocks });
    const workers = dataParallelWorkers(cfg, backend, log, plan.estimateBytes);
    if (workers > 1) {
      trainer.parallel = await ParallelGradients.create(workers, cfg.model.kind, modelConfigFor(cfg, data), backend, {
        ar, microBatch: trainer.microBatch, checkpointBlocks: trainer.checkpointBlocks, rolloutCheckpointing: cfg.rollout.checkpointing,
      });
      hooks.onWorkers?.(trainer.parallel);
      log(`data-parallel: ${workers} threads per step (this one and ${workers - 1} worker${workers > 2 ? 's' : ''}), batch ${cfg.batchSize} split between them, micro-batch ${trainer.microBatch} each`);
    }
    const ckpt = loadCheckpoint(run.dir, 'last');
    let records = 0;
    if (ckpt) {
      const weights = { tensors: new Map([...ckpt.weights].map(([k, e]) => [k, { dtype: 'F32' as const, shape: [...e.shape], bytes: new Uint8Array(e.data.buffer, e.data.byteOffset, e.data.byteLength) }])), metadata: {} };
      loadStateDict(trainer.model, weights, `${run.dir}/checkpoints/last/weights.safetensors`);
      trainer.opt.setState({ step: ckpt.state.optimizer.step, expAvg: ckpt.expAvg, expAvgSq: ckpt.expAvgSq }, `${run.dir}/checkpoints/last/optimizer.safetensors`);
      trainer.sched.setState(ckpt.state.scheduler);
      trainer.setState({ epoch: ckpt.state.epoch, globalStep: ckpt.state.globalStep, rng: ckpt.state.rng as never, best: ckpt.state.best });
      records = ckpt.state.metricsRecords;
      log(`resuming from checkpoints/last: epoch ${ckpt.state.epoch}, step ${ckpt.state.globalStep}` + (ckpt.state.backend !== backend ? ` (saved on backend '${ckpt.state.backend}', now '${backend}': results will not be bit-identical)` : ''));
    }
    // Records past the checkpoint belong to an epoch that did not finish: drop them (and any torn line).
    run.truncateMetrics(records);
    status = { epoch: trainer.epoch, step: trainer.globalStep };
    run.writeStatus({ state: 'running', pid: process.pid, backend, ...status });
    log(`training on ${backend}: ${plan.message}; ${trainer.model.numParams()} parameters`);
    let paused = false;
    const between = async () => {
      if (hooks.signal?.aborted) throw new StopRequested();
      if (hooks.waitIfPaused) {
        const t = setTimeout(() => {
          paused = true;
          run.writeStatus({ state: 'paused', pid: process.pid, backend, ...status });
        }, 50);
        await hooks.waitIfPaused();
        clearTimeout(t);
        if (paused) {
          paused = false;
          run.writeStatus({ state: 'running', pid: process.pid, backend, ...status });
        }
        if (hooks.signal?.aborted) throw new StopRequested();
      }
      await new Promise<void>((r) => setImmediate(r));
    };
    let last: EpochRecord | undefined;
    let epochsThisCall = 0;
    while (trainer.epoch < cfg.epochs) {
      if (hooks.maxEpochsThisCall !== undefined && epochsThisCall >= hooks.maxEpochsThisCall) {
        run.writeStatus({ state: 'stopped', pid: process.pid, backend, reason: 'epoch limit of this call', ...status });
        return { state: 'stopped', reason: 'epoch limit of this call', ...status, last };
      }
      const rec = await trainer.runEpoch({
        between,
        onStep: (s) => {
          run.appendMetrics([s]);
          records++;
          status = { epoch: trainer!.epoch, step: s.step };
          hooks.onStep?.(s);
        },
      });
      run.appendMetrics([rec], true);
      records++;
      const optState = await trainer.opt.getState();
      const weights = await stateDict(trainer.model);
      const state: CheckpointState = {
        format: 'lino-checkpoint',
        version: 1,
        epoch: trainer.epoch,
        globalStep: trainer.globalStep,
        optimizer: { name: 'adamw', step: optState.step, lr: trainer.opt.lr, weightDecay: trainer.opt.weightDecay, beta1: trainer.opt.beta1, beta2: trainer.opt.beta2, eps: trainer.opt.eps },
        scheduler: { name: 'steplr', ...trainer.sched.getState(), stepSize: cfg.schedule.stepSize, gamma: cfg.schedule.gamma },
        rng: trainer.rng.getState(),
        normalizer: data.manifest.normalization,
        best: trainer.best,
        backend,
        savedAt: new Date().toISOString(),
        metricsRecords: records,
      };
      // best before last: whenever `last` exists, `best` does too (a crash between them re-runs
      // the epoch from the previous `last`, which reproduces it exactly).
      if (rec.best) saveCheckpoint(run.dir, 'best', weights, optState, state);
      saveCheckpoint(run.dir, 'last', weights, optState, state);
      status = { epoch: trainer.epoch, step: trainer.globalStep };
      run.writeStatus({ state: 'running', pid: process.pid, backend, ...status });
      last = rec;
      epochsThisCall++;
      hooks.onEpoch?.(rec);
    }
    run.writeStatus({ state: 'done', pid: process.pid, backend, ...status });
    log(`done: ${status.epoch} epochs, best validation relL2 ${trainer.best?.valRelL2} at epoch ${trainer.best?.epoch}`);
    return { state: 'done', ...status, last };
  } catch (e) {
    // A stop while the data are prepared aborts the generator (an AbortError): a stop all the same.
    if (e instanceof StopRequested || hooks.signal?.aborted) {
      run.writeStatus({ state: 'stopped', pid: process.pid, backend, reason: 'stopped by the user', ...status });
      log(`stopped by the user at epoch ${status.epoch + 1}, step ${status.step}; checkpoints/last holds epoch ${status.epoch}`);
      return { state: 'stopped', reason: 'stopped by the user', ...status };
    }
    if (e instanceof NonFiniteError) {
      const reason = `${e.message}; checkpoints/last (epoch ${trainer?.epoch ?? 0}) is the last good state`;
      run.writeStatus({ state: 'failed', pid: process.pid, backend, reason, epoch: e.epoch, step: e.step });
      log(`failed: ${reason}`);
      return { state: 'failed', reason, epoch: e.epoch, step: e.step };
    }
    let reason = e instanceof Error ? e.message : String(e);
    // a crashed data-parallel worker: the run resumes from its last checkpoint like any failure
    if (/^data-parallel worker/.test(reason)) reason = `${reason}; checkpoints/last (epoch ${trainer?.epoch ?? 0}) is the last good state`;
    run.writeStatus({ state: 'failed', pid: process.pid, backend, reason, ...status });
    log(`failed: ${reason}`);
    throw e;
  } finally {
    // the data-parallel threads end with the run, whatever its outcome
    await trainer?.parallel?.close();
    trainer?.dispose();
  }
}

/**
 * Threads per step for a run: config.workers ('auto' = the machine's cores, at most MAX_WORKERS),
 * at most the batch size. Only the wasm and cpu backends run single-threaded in Node; tfjs-node
 * (tensorflow, tensorflow-gpu) already uses every core, so it trains with 1 and says why.
 */
export function dataParallelWorkers(cfg: TrainConfig, backend: string, log: (m: string) => void = () => {}, bytesPerThread = 0): number {
  const asked = cfg.workers === 'auto' ? Math.min(availableParallelism(), MAX_WORKERS) : cfg.workers;
  if (asked <= 1) return 1;
  if (backend !== 'wasm' && backend !== 'cpu') {
    // webgpu: one device queue, driven by one thread (a second thread would only contend for it)
    log(`workers: ${asked} asked, training with 1: backend '${backend}' ${backend === 'webgpu' ? 'runs on the GPU from one thread' : 'already uses every core'}`);
    return 1;
  }
  let n = Math.min(asked, cfg.batchSize);
  if (n < asked) log(`workers: ${asked} asked, ${n} used (batch size ${cfg.batchSize})`);
  // every thread holds a model, its optimizer-size buffers and its micro-batch: they share the RAM
  const ram = Math.floor(totalmem() * 0.7);
  if (bytesPerThread > 0 && n * bytesPerThread > ram) {
    const fit = Math.max(1, Math.floor(ram / bytesPerThread));
    log(`workers: ${n} threads would need about ${(n * bytesPerThread / 1024 ** 3).toFixed(2)} GiB (${(ram / 1024 ** 3).toFixed(2)} GiB usable); ${fit} used`);
    n = fit;
  }
  return n;
}
