// A run from its folder to its end: takes the run's lock (one writer per run), reads config.json,
// refuses a configuration whose memory cannot fit (from the configuration, before the data or the
// model exist, then again with the data), prepares the data, resumes from checkpoints/last when
// there is one, trains epoch by epoch appending every step and epoch record to metrics.jsonl,
// writes checkpoints/last (and best) at every epoch end, and records the outcome in status.json
// and events.log. Shared by the engine's 'train' job and `lino train`.
import * as tf from '@tensorflow/tfjs';
import { TrainConfig } from '../api/contract';
import type { RunHandle, RunState } from '../runs/run-store';
import { writeJsonAtomic } from '../util/atomic-file';
import { firstNonFinite, loadCheckpoint, NonFiniteWeightsError, readCheckpointState, saveCheckpoint, type CheckpointState } from '../runs/checkpoint';
import { acquireRunLock } from '../runs/run-lock';
import { formatZodIssues } from '../api/zod-issues';
import { linoParamCount } from '../model/lino/estimate';
import { loadStateDict, stateDict, weightsMetadata } from '../runs/safetensors';
import { availableParallelism, totalmem } from 'node:os';
import { Trainer, NonFiniteError, modelConfigFor, type EpochRecord, type StepRecord } from './trainer';
import { ParallelGradients, MAX_WORKERS } from './parallel-grads';
import { loadTrainData } from './data-source';
import { choosePlan, generatedBytes, preflightMemory, ramBytes, syntheticShape, type DataShape, type MemoryPlan, type Preflight } from './memory';
import { autoregressiveSpec } from './data';
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
  /** Who trains, written into the run's lock for the messages ('lino train', 'the engine'). */
  owner?: string;
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
  if (!r.success) throw new Error(`${source}: ${formatZodIssues(r.error.issues, raw)}`);
  return r.data;
}

/** The data shape a spec promises before anything is read (synthetic data; null for the others). */
export function specShape(cfg: TrainConfig): DataShape | null {
  return cfg.data.kind === 'synthetic' ? syntheticShape(cfg.data) : null;
}

/** Why a run is refused before anything is allocated (params, data and one step from the config), or null. */
export function refuseBeforeStart(cfg: TrainConfig, backend: string): Preflight | null {
  const pre = preflightMemory(cfg, backend, specShape(cfg));
  if (!pre.fits) return pre;
  const gen = cfg.data.kind === 'generate' ? generatedBytes(cfg.data) : null;
  if (gen && gen.bytes > ramBytes()) {
    const g = (b: number) => `${(b / 1024 ** 3).toFixed(2)} GiB`;
    return { fits: false, field: 'data.samples', params: pre.params, message: `does not fit: the generated data need ${g(gen.bytes)} (${gen.what}), this machine allows ${g(ramBytes())}. Lower data.samples (or data.generateResolution, data.frames).` };
  }
  return null;
}

/**
 * Trains a run, holding its lock (runs/<id>/train.lock) from start to end: a second writer, in
 * this process or another, is refused with RunLockedError before it touches anything.
 */
export async function trainRun(run: RunHandle, hooks: RunHooks = {}): Promise<RunOutcome> {
  const lock = acquireRunLock(run.id, run.dir, hooks.owner ?? 'a trainer', (m) => {
    run.log(m);
    hooks.onLog?.(m);
    process.stderr.write(`${m}\n`);
  });
  try {
    return await trainLocked(run, hooks);
  } finally {
    lock.release();
  }
}

type Prepared = { cfg: TrainConfig; data: TrainData; plan: MemoryPlan; checkpointBlocks: boolean; params: number };

/** Config, memory checks (before the data, then before the model) and the data. */
async function prepare(run: RunHandle, cfg: TrainConfig, raw: Record<string, unknown>, backend: string, hooks: RunHooks, log: (m: string) => void): Promise<Prepared | Preflight> {
  const early = refuseBeforeStart(cfg, backend);
  if (early) return early;
  if (!hooks.data) log(`preparing the data (${cfg.data.kind})`);
  const data = hooks.data ?? (await loadTrainData(cfg.data, { workspace: hooks.workspace, signal: hooks.signal, onProgress: log }));
  if (hooks.signal?.aborted) throw new StopRequested();
  const ar = autoregressiveSpec(data);
  if (!('resolvedData' in raw)) {
    const m = data.manifest;
    writeJsonAtomic(run.configPath, {
      ...raw,
      resolvedData: { id: m.id ?? null, contentHash: m.contentHash ?? null, grid: m.grid, counts: { train: data.train.x.shape[0], val: data.val.x.shape[0], test: data.test?.x.shape[0] ?? 0 }, normalization: m.normalization, autoregressive: ar },
    });
  }
  // The model's size from its configuration: nothing is built until the plan fits.
  const mc = modelConfigFor(cfg, data);
  const params = linoParamCount(mc);
  const input = {
    ...cfg.model,
    inChannels: mc.inChannels,
    outChannels: mc.outChannels,
    params,
    grid: data.manifest.grid,
    ...(ar ? { rollout: { tOut: ar.tOut, checkpointing: cfg.rollout.checkpointing } } : {}),
  };
  const { plan, checkpointBlocks } = choosePlan(input, cfg, backend, cfg.model.kind === 'lino');
  hooks.onPlan?.(plan);
  if (!plan.fits) return { fits: false, field: 'model.width', params, plan, message: plan.message };
  // Native and cpu backends put the step's tensors next to the data, in the same memory.
  const held = [data.train, data.val, data.test].reduce((a, s) => a + (s ? 4 * (s.x.data.length + s.y.data.length) : 0), 0);
  if (backend !== 'wasm' && held + plan.estimateBytes > ramBytes()) {
    const g = (b: number) => `${(b / 1024 ** 3).toFixed(2)} GiB`;
    return { fits: false, field: 'data.train', params, plan, message: `does not fit: the data (${g(held)}) and one training step (${g(plan.estimateBytes)}) need ${g(held + plan.estimateBytes)}, this machine allows ${g(ramBytes())}. Use fewer samples, a smaller grid or a smaller model.` };
  }
  return { cfg, data, plan, checkpointBlocks, params };
}

/** Puts checkpoints/last back into the trainer; refuses a resume that would lose epochs silently. */
function restore(run: RunHandle, trainer: Trainer, cfg: TrainConfig, backend: string, log: (m: string) => void): number {
  const ckpt = loadCheckpoint(run.dir, 'last');
  const lastDir = `${run.dir}/checkpoints/last`;
  if (!ckpt) {
    // Epochs were checkpointed before but checkpoints/last is gone: starting over would drop their
    // metrics. An epoch's record is written just before its checkpoint, so a second record proves
    // the first was saved; a single one was saved when status.json (written after the save) says so.
    const epochs = run.readMetrics().records.filter((r) => r.type === 'epoch').length;
    const done = epochs >= 2 || (epochs === 1 && (run.readStatus().epoch ?? 0) >= 1) ? epochs : 0;
    if (done > 0) {
      const best = (() => {
        try {
          return readCheckpointState(run.dir, 'best');
        } catch {
          return null;
        }
      })();
      throw new Error(
        `${lastDir} is missing, but the run has ${done} epoch${done > 1 ? 's' : ''} recorded (status.json, metrics.jsonl); resuming would restart from epoch 1 and drop them. ` +
          (best ? `Copy ${run.dir}/checkpoints/best (epoch ${best.epoch}) to ${lastDir} to resume from there, or start a new run.` : 'Start a new run with the same configuration.'),
      );
    }
    return 0;
  }
  const statePath = `${lastDir}/state.json`;
  if (ckpt.state.epoch > cfg.epochs) throw new Error(`${statePath}: field 'epoch': expected an integer from 0 to ${cfg.epochs} (the run's epochs in config.json), got ${ckpt.state.epoch}`);
  const records = run.readMetrics().records.length;
  if (ckpt.state.metricsRecords > records) throw new Error(`${statePath}: field 'metricsRecords': expected at most ${records} (the records in metrics.jsonl), got ${ckpt.state.metricsRecords}`);
  const bad = firstNonFinite(ckpt.weights);
  if (bad) throw new Error(`${lastDir}/weights.safetensors: tensor '${bad.name}' holds ${bad.value} at index ${bad.index}; not a state to resume from (resume from checkpoints/best or start a new run)`);
  const weights = { tensors: new Map([...ckpt.weights].map(([k, e]) => [k, { dtype: 'F32' as const, shape: [...e.shape], bytes: new Uint8Array(e.data.buffer, e.data.byteOffset, e.data.byteLength) }])), metadata: {} };
  loadStateDict(trainer.model, weights, `${lastDir}/weights.safetensors`);
  trainer.opt.setState({ step: ckpt.state.optimizer.step, expAvg: ckpt.expAvg, expAvgSq: ckpt.expAvgSq }, `${lastDir}/optimizer.safetensors`);
  trainer.sched.setState(ckpt.state.scheduler);
  trainer.setState({ epoch: ckpt.state.epoch, globalStep: ckpt.state.globalStep, rng: ckpt.state.rng as never, best: ckpt.state.best });
  log(`resuming from checkpoints/last: epoch ${ckpt.state.epoch}, step ${ckpt.state.globalStep}` + (ckpt.state.backend !== backend ? ` (saved on backend '${ckpt.state.backend}', now '${backend}': results will not be bit-identical)` : ''));
  return ckpt.state.metricsRecords;
}

async function checkpointStateOf(trainer: Trainer, cfg: TrainConfig, data: TrainData, backend: string, records: number): Promise<{ state: CheckpointState; optState: Awaited<ReturnType<Trainer['opt']['getState']>> }> {
  const optState = await trainer.opt.getState();
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
  return { state, optState };
}

async function trainLocked(run: RunHandle, hooks: RunHooks): Promise<RunOutcome> {
  const raw = run.readConfig();
  const cfg = parseRunConfig(raw, run.configPath);
  const backend = tf.getBackend();
  const log = (m: string) => {
    run.log(m);
    hooks.onLog?.(m);
  };
  let trainer: Trainer | null = null;
  let status: { epoch: number; step: number } = { epoch: 0, step: 0 };
  // what the last good checkpoint holds, for the failure messages
  let saved = 0;
  try {
    saved = run.readStatus().epoch ?? 0;
    const prep = await prepare(run, cfg, raw, backend, hooks, log);
    if (!('data' in prep)) {
      run.writeStatus({ state: 'failed', pid: process.pid, reason: `memory: ${prep.message}`, backend, ...(saved ? { epoch: saved } : {}) });
      log(`refused before starting: ${prep.message}`);
      return { state: 'failed', reason: prep.message, epoch: 0, step: 0 };
    }
    const { data, plan, checkpointBlocks } = prep;
    trainer = new Trainer(cfg, data, backend, { microBatch: plan.microBatch, checkpointBlocks });
    const workers = dataParallelWorkers(cfg, backend, log, plan.estimateBytes);
    if (workers > 1) {
      trainer.parallel = await ParallelGradients.create(workers, cfg.model.kind, modelConfigFor(cfg, data), backend, {
        ar: autoregressiveSpec(data), microBatch: trainer.microBatch, checkpointBlocks: trainer.checkpointBlocks, rolloutCheckpointing: cfg.rollout.checkpointing,
      });
      hooks.onWorkers?.(trainer.parallel);
      log(`data-parallel: ${workers} threads per step (this one and ${workers - 1} worker${workers > 2 ? 's' : ''}), batch ${cfg.batchSize} split between them, micro-batch ${trainer.microBatch} each`);
    }
    let records = restore(run, trainer, cfg, backend, log);
    saved = trainer.epoch;
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
      const { state, optState } = await checkpointStateOf(trainer, cfg, data, backend, records);
      const weights = await stateDict(trainer.model);
      const meta = weightsMetadata(trainer.model, state.normalizer);
      // best before last: whenever `last` exists, `best` does too (a crash between them re-runs
      // the epoch from the previous `last`, which reproduces it exactly). Both refuse non-finite weights.
      if (rec.best) saveCheckpoint(run.dir, 'best', weights, optState, state, meta);
      saveCheckpoint(run.dir, 'last', weights, optState, state, meta);
      saved = trainer.epoch;
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
    const goodState = saved > 0 ? `checkpoints/last (epoch ${saved}) is the last good state` : 'no epoch was saved yet: start the run again';
    if (e instanceof NonFiniteError || e instanceof NonFiniteWeightsError) {
      const reason = `${e.message}; ${goodState}`;
      // non-finite weights: the status keeps the last saved epoch (nothing of this one was kept)
      const where = e instanceof NonFiniteError ? { epoch: e.epoch, step: e.step } : { epoch: saved, step: trainer?.globalStep ?? 0 };
      run.writeStatus({ state: 'failed', pid: process.pid, backend, reason, ...where });
      log(`failed: ${reason}`);
      return { state: 'failed', reason, ...where };
    }
    let reason = e instanceof Error ? e.message : String(e);
    // a crashed data-parallel worker: the run resumes from its last checkpoint like any failure
    if (/^data-parallel worker/.test(reason)) reason = `${reason}; ${goodState}`;
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
