// A run from its folder to its end: takes the run's lock (one writer per run), reads config.json,
// refuses a configuration whose memory cannot fit (from the configuration, before the data or the
// model exist, then again with the data), prepares the data, resumes from checkpoints/last when
// there is one, trains epoch by epoch appending every step and epoch record to metrics.jsonl,
// writes checkpoints/last (and best) at every epoch end, and records the outcome in status.json
// and events.log. Shared by the engine's 'train' job and `lino train`.
import * as tf from '../ops/tf';
import { TrainConfig } from './config';
import type { RunHandle, RunState } from '../runs/run-store';
import { writeJsonAtomic } from '../util/atomic-file';
import { firstNonFinite, loadCheckpoint, NonFiniteWeightsError, readCheckpointState, saveCheckpoint, type CheckpointState } from '../runs/checkpoint';
import { errorMessage } from '../util/error-message';
import { acquireRunLock } from '../runs/run-lock';
import { formatZodIssues } from '../util/zod-issues';
import { stateDict, weightsMetadata } from '../runs/state-dict';
import { availableParallelism, totalmem } from 'node:os';
import { Trainer, NonFiniteError, modelConfigFor, type EpochRecord, type StepRecord } from './trainer';
import { MAX_WORKERS, type ParallelGradients } from './parallel-grads';
import { loadTrainData } from './data-source';
import { choosePlan, generatedBytes, preflightMemory, ramBytes, syntheticShape, type DataShape, type MemoryPlan, type Preflight } from './memory';
import { autoregressiveSpec, countOf } from './data';
import type { TrainData } from './data';
import { modelEntry } from '../model/registry';
import { BACKEND_ORDER, isBackendChoice, wasmRunsWith } from '../ops/backend';

export interface RunHooks {
  signal?: AbortSignal;
  /** Awaited between steps: resolves when the run may continue (pause). */
  waitIfPaused?: () => Promise<void>;
  onStep?: (s: StepRecord) => void;
  onEpoch?: (e: EpochRecord) => void;
  onLog?: (message: string) => void;
  /** The memory plan and the run's length, once the data are known (before the model is built). */
  onPlan?: (p: MemoryPlan, steps: RunSteps) => void;
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

/**
 * parseRunConfig and the backend's name (one the engine can select): the checks `lino train` and
 * train.start apply to a configuration before anything is loaded, and a sweep to each trial's.
 */
export function checkRunConfig(raw: unknown, source = 'config.json'): TrainConfig {
  const cfg = parseRunConfig(raw, source);
  if (cfg.backend !== undefined && cfg.backend !== 'torch' && !isBackendChoice(cfg.backend)) {
    throw new Error(`${source}: field 'backend': expected one of ${BACKEND_ORDER.join(', ')} or torch, got ${JSON.stringify(cfg.backend.length > 40 ? `${cfg.backend.slice(0, 40)}...` : cfg.backend)}`);
  }
  return cfg;
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

/** A run's length, sent with its memory plan once the data are known. */
export interface RunSteps {
  epochs: number;
  stepsPerEpoch: number;
  /** epochs * stepsPerEpoch: the global step number of the run's last step. */
  totalSteps: number;
}

/** What one trainRun call works with; `status` and `saved` follow the run as it trains. */
interface RunContext {
  run: RunHandle;
  hooks: RunHooks;
  cfg: TrainConfig;
  backend: string;
  log: (m: string) => void;
  trainer: Trainer | null;
  status: { epoch: number; step: number };
  /** The epoch the last good checkpoint holds, for the failure messages. */
  saved: number;
}

/** The first time a run trains, config.json records what its data spec resolved to. */
export function recordResolvedData(run: RunHandle, raw: Record<string, unknown>, data: TrainData): void {
  if ('resolvedData' in raw) return;
  const m = data.manifest;
  const counts = { train: data.train.x.shape[0], val: data.val.x.shape[0], test: data.test?.x.shape[0] ?? 0 };
  writeJsonAtomic(run.configPath, {
    ...raw,
    resolvedData: { id: m.id ?? null, contentHash: m.contentHash ?? null, grid: m.grid, counts, normalization: m.normalization, autoregressive: autoregressiveSpec(data) },
  });
}

/** Config, memory checks (before the data, then before the model) and the data. */
async function prepareRun(ctx: RunContext, raw: Record<string, unknown>): Promise<Prepared | Preflight> {
  const { run, cfg, backend, hooks, log } = ctx;
  const early = refuseBeforeStart(cfg, backend);
  if (early) return early;
  if (!hooks.data) log(`preparing the data (${cfg.data.kind})`);
  const data = hooks.data ?? (await loadTrainData(cfg.data, { workspace: hooks.workspace, keepGenerated: !cfg.group, signal: hooks.signal, onProgress: log }));
  if (hooks.signal?.aborted) throw new StopRequested();
  const ar = autoregressiveSpec(data);
  recordResolvedData(run, raw, data);
  // The model's size from its configuration: nothing is built until the plan fits.
  const mc = modelConfigFor(cfg, data);
  const entry = modelEntry(cfg.model.kind);
  const params = entry.paramCount(mc);
  const input = {
    ...cfg.model,
    modelConfig: mc,
    inChannels: mc.inChannels as number,
    outChannels: mc.outChannels as number,
    params,
    grid: data.manifest.grid,
    ...(ar ? { rollout: { tOut: ar.tOut, checkpointing: cfg.rollout.checkpointing } } : {}),
  };
  const { plan, checkpointBlocks } = choosePlan(input, cfg, backend, entry.forwardCheckpointed !== undefined);
  const stepsPerEpoch = Math.ceil(countOf(data.train) / cfg.batchSize);
  hooks.onPlan?.(plan, { epochs: cfg.epochs, stepsPerEpoch, totalSteps: cfg.epochs * stepsPerEpoch });
  if (!plan.fits) return { fits: false, field: 'model.width', params, plan, message: plan.message };
  // Native and cpu backends put the step's tensors next to the data, in the same memory.
  const held = [data.train, data.val, data.test].reduce((a, s) => a + (s ? 4 * (s.x.data.length + s.y.data.length) : 0), 0);
  if (backend !== 'wasm' && held + plan.estimateBytes > ramBytes()) {
    const g = (b: number) => `${(b / 1024 ** 3).toFixed(2)} GiB`;
    return { fits: false, field: 'data.train', params, plan, message: `does not fit: the data (${g(held)}) and one training step (${g(plan.estimateBytes)}) need ${g(held + plan.estimateBytes)}, this machine allows ${g(ramBytes())}. Use fewer samples, a smaller grid or a smaller model.` };
  }
  return { cfg, data, plan, checkpointBlocks, params };
}

/** The trainer for a prepared run, with its data-parallel threads when config.workers asks for them. */
async function startTrainer(ctx: RunContext, prep: Prepared): Promise<Trainer> {
  const { cfg, backend, log, hooks } = ctx;
  const trainer = new Trainer(cfg, prep.data, backend, { microBatch: prep.plan.microBatch, checkpointBlocks: prep.checkpointBlocks });
  ctx.trainer = trainer;
  const workers = dataParallelWorkers(cfg, backend, log, prep.plan.estimateBytes);
  if (workers > 1) {
    hooks.onWorkers?.(await trainer.startWorkers(workers));
    log(`data-parallel: ${workers} threads per step (this one and ${workers - 1} worker${workers > 2 ? 's' : ''}), batch ${cfg.batchSize} split between them, micro-batch ${trainer.microBatch} each`);
  }
  return trainer;
}

/**
 * checkpoints/last is gone: when epochs were checkpointed before, starting over would drop their
 * metrics. An epoch's record is written just before its checkpoint, so a second record proves the
 * first was saved; a single one was saved when status.json (written after the save) says so.
 */
export function refuseLostCheckpoint(run: RunHandle, lastDir: string): void {
  const epochs = run.readMetrics().records.filter((r) => r.type === 'epoch').length;
  const done = epochs >= 2 || (epochs === 1 && (run.readStatus().epoch ?? 0) >= 1) ? epochs : 0;
  if (done === 0) return;
  let best: CheckpointState | null = null;
  try {
    best = readCheckpointState(run.dir, 'best');
  } catch {
    best = null;
  }
  throw new Error(
    `${lastDir} is missing, but the run has ${done} epoch${done > 1 ? 's' : ''} recorded (status.json, metrics.jsonl); resuming would restart from epoch 1 and drop them. ` +
      (best ? `Copy ${run.dir}/checkpoints/best (epoch ${best.epoch}) to ${lastDir} to resume from there, or start a new run.` : 'Start a new run with the same configuration.'),
  );
}

/** Puts checkpoints/last back into the trainer; refuses a resume that would lose epochs silently. Returns the metrics records it covers. */
function restore(ctx: RunContext, trainer: Trainer): number {
  const { run, cfg, backend } = ctx;
  const ckpt = loadCheckpoint(run.dir, 'last');
  const lastDir = `${run.dir}/checkpoints/last`;
  if (!ckpt) {
    refuseLostCheckpoint(run, lastDir);
    return 0;
  }
  const statePath = `${lastDir}/state.json`;
  if (ckpt.state.epoch > cfg.epochs) throw new Error(`${statePath}: field 'epoch': expected an integer from 0 to ${cfg.epochs} (the run's epochs in config.json), got ${ckpt.state.epoch}`);
  const records = run.readMetrics().records.length;
  if (ckpt.state.metricsRecords > records) throw new Error(`${statePath}: field 'metricsRecords': expected at most ${records} (the records in metrics.jsonl), got ${ckpt.state.metricsRecords}`);
  const bad = firstNonFinite(ckpt.weights);
  if (bad) throw new Error(`${lastDir}/weights.safetensors: tensor '${bad.name}' holds ${bad.value} at index ${bad.index}; not a state to resume from (resume from checkpoints/best or start a new run)`);
  trainer.restore(ckpt, lastDir);
  ctx.log(`resuming from checkpoints/last: epoch ${ckpt.state.epoch}, step ${ckpt.state.globalStep}` + (ckpt.state.backend !== backend ? ` (saved on backend '${ckpt.state.backend}', now '${backend}': results will not be bit-identical)` : ''));
  return ckpt.state.metricsRecords;
}

/** Awaited between steps: a stop ends the run, a pause waits (status 'paused' once it lasts 50 ms). */
function betweenSteps(ctx: RunContext): () => Promise<void> {
  const { run, hooks, backend } = ctx;
  let paused = false;
  return async () => {
    if (hooks.signal?.aborted) throw new StopRequested();
    if (hooks.waitIfPaused) {
      const t = setTimeout(() => {
        paused = true;
        run.writeStatus({ state: 'paused', pid: process.pid, backend, ...ctx.status });
      }, 50);
      await hooks.waitIfPaused();
      clearTimeout(t);
      if (paused) {
        paused = false;
        run.writeStatus({ state: 'running', pid: process.pid, backend, ...ctx.status });
      }
      if (hooks.signal?.aborted) throw new StopRequested();
    }
    await new Promise<void>((r) => setImmediate(r));
  };
}

/** checkpoints/best (when this epoch is the best) and checkpoints/last after an epoch. */
async function saveEpoch(ctx: RunContext, trainer: Trainer, rec: EpochRecord, records: number): Promise<void> {
  const { state, optimizer } = await trainer.checkpointState(records);
  const weights = await stateDict(trainer.model);
  const meta = weightsMetadata(trainer.model, state.normalizer);
  // best before last: whenever `last` exists, `best` does too (a crash between them re-runs
  // the epoch from the previous `last`, which reproduces it exactly). Both refuse non-finite weights.
  if (rec.best) saveCheckpoint(ctx.run.dir, 'best', weights, optimizer, state, meta);
  saveCheckpoint(ctx.run.dir, 'last', weights, optimizer, state, meta);
  ctx.saved = trainer.epoch;
}

/** Epochs until the run's end (or this call's epoch limit): every record appended, every epoch checkpointed. */
async function loop(ctx: RunContext, trainer: Trainer, records: number): Promise<RunOutcome> {
  const { run, hooks, cfg, backend } = ctx;
  const between = betweenSteps(ctx);
  let last: EpochRecord | undefined;
  let epochsThisCall = 0;
  while (trainer.epoch < cfg.epochs) {
    if (hooks.maxEpochsThisCall !== undefined && epochsThisCall >= hooks.maxEpochsThisCall) {
      run.writeStatus({ state: 'stopped', pid: process.pid, backend, reason: 'epoch limit of this call', ...ctx.status });
      return { state: 'stopped', reason: 'epoch limit of this call', ...ctx.status, last };
    }
    const rec = await trainer.runEpoch({
      between,
      onStep: (s) => {
        run.appendMetrics([s]);
        records++;
        ctx.status = { epoch: trainer.epoch, step: s.step };
        hooks.onStep?.(s);
      },
    });
    run.appendMetrics([rec], true);
    records++;
    await saveEpoch(ctx, trainer, rec, records);
    ctx.status = { epoch: trainer.epoch, step: trainer.globalStep };
    run.writeStatus({ state: 'running', pid: process.pid, backend, ...ctx.status });
    last = rec;
    epochsThisCall++;
    hooks.onEpoch?.(rec);
  }
  run.writeStatus({ state: 'done', pid: process.pid, backend, ...ctx.status });
  ctx.log(`done: ${ctx.status.epoch} epochs, best validation relL2 ${trainer.best?.valRelL2} at epoch ${trainer.best?.epoch}`);
  return { state: 'done', ...ctx.status, last };
}

/** How a run that threw ends: stopped, failed on a non-finite value, or failed (rethrown). */
function finish(ctx: RunContext, e: unknown): RunOutcome {
  const { run, hooks, backend, log, status, saved } = ctx;
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
    const where = e instanceof NonFiniteError ? { epoch: e.epoch, step: e.step } : { epoch: saved, step: ctx.trainer?.globalStep ?? 0 };
    run.writeStatus({ state: 'failed', pid: process.pid, backend, reason, ...where });
    log(`failed: ${reason}`);
    return { state: 'failed', reason, ...where };
  }
  let reason = errorMessage(e);
  // a crashed data-parallel worker: the run resumes from its last checkpoint like any failure
  if (/^data-parallel worker/.test(reason)) reason = `${reason}; ${goodState}`;
  run.writeStatus({ state: 'failed', pid: process.pid, backend, reason, ...status });
  log(`failed: ${reason}`);
  throw e;
}

async function trainLocked(run: RunHandle, hooks: RunHooks): Promise<RunOutcome> {
  const raw = run.readConfig();
  const cfg = parseRunConfig(raw, run.configPath);
  const log = (m: string) => {
    run.log(m);
    hooks.onLog?.(m);
  };
  const ctx: RunContext = { run, hooks, cfg, backend: tf.getBackend(), log, trainer: null, status: { epoch: 0, step: 0 }, saved: 0 };
  try {
    ctx.saved = run.readStatus().epoch ?? 0;
    const prep = await prepareRun(ctx, raw);
    if (!('data' in prep)) {
      run.writeStatus({ state: 'failed', pid: process.pid, reason: `memory: ${prep.message}`, backend: ctx.backend, ...(ctx.saved ? { epoch: ctx.saved } : {}) });
      log(`refused before starting: ${prep.message}`);
      return { state: 'failed', reason: prep.message, epoch: 0, step: 0 };
    }
    const trainer = await startTrainer(ctx, prep);
    const records = restore(ctx, trainer);
    ctx.saved = trainer.epoch;
    // Records past the checkpoint belong to an epoch that did not finish: drop them (and any torn line).
    run.truncateMetrics(records);
    ctx.status = { epoch: trainer.epoch, step: trainer.globalStep };
    run.writeStatus({ state: 'running', pid: process.pid, backend: ctx.backend, ...ctx.status });
    const how = ctx.backend === 'wasm' ? wasmRunsWith() : null;
    log(`training on ${ctx.backend}${how ? ` (${how})` : ''}: ${prep.plan.message}; ${trainer.model.numParams()} parameters`);
    return await loop(ctx, trainer, records);
  } catch (e) {
    return finish(ctx, e);
  } finally {
    // the data-parallel threads end with the run, whatever its outcome
    await ctx.trainer?.parallel?.close();
    ctx.trainer?.dispose();
  }
}

/**
 * Threads per step for a run: config.workers ('auto' = the machine's cores, at most MAX_WORKERS),
 * at most the batch size. Only the wasm and cpu backends use them (single-threaded unless LINO_WASM_THREADS); tfjs-node
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
