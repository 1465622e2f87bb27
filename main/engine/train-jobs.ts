// Training and evaluation as engine jobs, the run's lifecycle: queued runs train one after another
// (JobQueue), can be paused (between steps), resumed and stopped, on the engine's backends or on
// PyTorch. Its pieces: the ETA (./step-eta.ts), live metrics throttled (./metrics-throttle.ts), the
// training worker (./train-worker-run.ts).
import { join } from 'node:path';
import { hostname } from 'node:os';
import type { Worker } from 'node:worker_threads';
import { runInTrainWorker, type LoopHooks } from './train-worker-run';
import { MetricsThrottle } from './metrics-throttle';
import { StepEta } from './step-eta';
import type { ToTrainWorker, TrainWorkerInput } from './train-worker';
import type { RunOutcome } from '../train/runner';
import type { Calibration } from '../train/config';
import type { RunState } from '../runs/run-records';
import type { JobSummary, WorkbenchEvent } from '../api/contract';
import { ApiError } from '../api/api-error';
import type { JobContext, JobDefinition, JobQueue } from './jobs';
import type { JobParams } from './job-params';
import { RunStore, type RunHandle } from '../runs/run-store';
import { PauseGate } from '../util/pause-gate';
import { refuseBeforeStart, parseRunConfig, trainRun } from '../train/runner';
import { assertRunUnlocked, releaseOwnLeftoverLock, runLockHolder, RunLockedError } from '../runs/run-lock';
import { trainTorchRun } from '../train/torch-run';
import { adoptTorchRun, torchRunsToAdopt } from '../train/torch-adopt';
import { pythonCommand } from '../train/torch-probe';
import { readSettings } from '../workspace/settings';
import { initBackend, tf } from './tf-runtime';
import { BACKEND_ORDER, isBackendChoice, selectBackend } from '../ops/backend';
import { calibrate, CalibrationCancelled } from '../train/calibrate';
import { errorMessage } from '../util/error-message';

export class TrainingJobs {
  private readonly runJobs = new Map<string, { jobId: string; workspace: string }>();
  private readonly gates = new Map<string, PauseGate>();
  /** Runs training now (the training lane may run several), each with its folder: its lock (held by its worker thread) goes when the engine exits. */
  private readonly active = new Map<string, string>();
  private readonly workers = new Map<string, Worker>();
  /** Runs whose job follows a PyTorch process an earlier engine started (adopt()), not a trainer of its own. */
  private readonly adopting = new Set<string>();
  /** Where training loops run: a worker thread (default) or the engine's main thread (LINO_TRAIN_IN_THREAD=1). */
  inThread = process.env.LINO_TRAIN_IN_THREAD === '1';

  constructor(private readonly jobs: JobQueue, private readonly emit: (e: WorkbenchEvent) => void) {
    process.on('exit', () => {
      for (const dir of this.active.values()) releaseOwnLeftoverLock(dir);
    });
  }

  /** The train kind's label and body (its entry in JOB_HANDLERS, main/engine/job-handlers.ts). */
  readonly trainJob: JobDefinition<JobParams['train']> = { label: (p) => `Train run ${p.runId}`, run: (p, ctx) => this.runJob(p, ctx) };

  /** Whether this engine is training `runId` right now (a 'running' status otherwise means interrupted). */
  isActive = (runId: string): boolean => this.active.has(runId);

  private calibration: AbortController | null = null;

  /**
   * train.calibrate: times the configuration on the backend its run would use (its own, or the
   * engine's). A newer call cancels an older one; a backend switch is refused while a job runs in
   * this thread (it would move that job's tensors).
   */
  async calibrate(workspace: string, raw: unknown, steps?: number): Promise<Calibration> {
    let cfg;
    try {
      cfg = parseRunConfig(raw, 'train.calibrate: config');
    } catch (e) {
      throw new ApiError((e as Error).message, 'invalid_params', { field: 'config' });
    }
    if (cfg.backend === 'torch') {
      throw new ApiError('train.calibrate: config: field \'backend\': a PyTorch run is timed by its own first steps (the Queue card\'s ETA); calibration times the engine\'s backends', 'invalid_params', { field: 'config.backend' });
    }
    if (cfg.backend !== undefined && !isBackendChoice(cfg.backend)) {
      throw new ApiError(`train.calibrate: config: field 'backend': expected one of ${BACKEND_ORDER.join(', ')} or torch, got '${cfg.backend}'`, 'invalid_params', { field: 'config.backend' });
    }
    await initBackend();
    const current = tf.getBackend();
    const wanted = cfg.backend ?? process.env.LINO_BACKEND ?? current;
    // What train.start refuses is refused before any backend is switched or anything built.
    const pre = refuseBeforeStart(cfg, wanted);
    if (pre) throw new ApiError(`memory: ${pre.message}`, 'invalid_params', { field: pre.field ?? 'config' });
    const same = wanted === current || (wanted.startsWith('tensorflow') && current === 'tensorflow');
    this.calibration?.abort();
    const ctl = new AbortController();
    this.calibration = ctl;
    let switched = false;
    try {
      if (!same) {
        const busy = (this.inThread && this.active.size > 0) || this.jobs.list().some((j) => j.state === 'running' && j.kind !== 'train');
        if (busy) throw new ApiError(`train.calibrate: config: field 'backend': '${wanted}' differs from the engine's ${current} and a job runs in the engine thread; estimate again when it ends`, 'invalid_params', { field: 'config.backend' });
        await selectBackend(wanted);
        switched = true;
      }
      return await calibrate(cfg, { workspace, backend: tf.getBackend(), ...(steps !== undefined ? { steps } : {}), signal: ctl.signal });
    } catch (e) {
      if (e instanceof ApiError) throw e;
      if (e instanceof CalibrationCancelled) throw new ApiError(e.message, 'cancelled');
      const field = (e as { field?: string }).field;
      throw new ApiError((e as Error).message, 'invalid_params', { field: field ?? 'config' });
    } finally {
      if (switched) await selectBackend(current);
      if (this.calibration === ctl) this.calibration = null;
    }
  }

  private store(workspace: string): RunStore {
    return new RunStore(join(workspace, 'runs'));
  }

  private runEvent(runId: string, state: RunState, extra: { reason?: string; epoch?: number; step?: number } = {}) {
    this.emit({ type: 'run', runId, state, ...extra });
  }

  /**
   * Queues a run (new or to resume from its last checkpoint). Refused at once, before anything is
   * allocated: a run another process trains (its lock), an unknown backend, a configuration whose
   * parameters, data or step cannot fit in memory (the last two leave the run failed, not queued).
   */
  start(workspace: string, runId: string): JobSummary {
    const store = this.store(workspace);
    const run = store.open(runId);
    const existing = this.runJobs.get(runId);
    if (existing && this.jobs.list().some((j) => j.id === existing.jobId && (j.state === 'queued' || j.state === 'running'))) {
      throw new ApiError(`run '${runId}' is already queued or training`, 'invalid_params', { field: 'id' });
    }
    try {
      assertRunUnlocked(runId, run.dir);
    } catch (e) {
      throw new ApiError(errorMessage(e), 'invalid_params', { field: 'id' });
    }
    const st = run.readStatus(this.isActive);
    if (st.state === 'done') throw new ApiError(`run '${runId}' is done; start a new run to train further`, 'invalid_params', { field: 'id' });
    let cfg;
    try {
      cfg = parseRunConfig(run.readConfig(), run.configPath);
    } catch (e) {
      throw this.refuse(run, st.epoch, errorMessage(e), 'config');
    }
    if (cfg.backend !== undefined && cfg.backend !== 'torch' && !isBackendChoice(cfg.backend)) {
      throw this.refuse(run, st.epoch, `${run.configPath}: field 'backend': expected one of ${BACKEND_ORDER.join(', ')} or torch, got '${cfg.backend}'`, 'backend');
    }
    // PyTorch checks its own memory (a CUDA out-of-memory error names the batch size)
    const pre = cfg.backend === 'torch' ? null : refuseBeforeStart(cfg, cfg.backend ?? process.env.LINO_BACKEND ?? tf.getBackend());
    if (pre) throw this.refuse(run, st.epoch, `run '${runId}' ${pre.message}`, pre.field ?? 'config', 'memory: ');
    run.writeStatus({ state: 'queued', pid: process.pid, ...(st.epoch !== undefined ? { epoch: st.epoch } : {}) });
    const job = this.jobs.start('train', { workspace, runId });
    this.runJobs.set(runId, { jobId: job.id, workspace });
    this.runEvent(runId, 'queued');
    return job;
  }

  /**
   * After an engine or host restart: each run of `workspace` a PyTorch process of an earlier engine
   * still trains gets a train job that follows it (the same live events, Pause and Stop, its slot in
   * the training lane); one whose Python ended while no engine was up is finalized as the follower
   * would have. Called by the host when an engine starts and when a workspace opens.
   */
  async adopt(workspace: string): Promise<{ following: string[]; ended: string[] }> {
    const following: string[] = [];
    const ended: string[] = [];
    for (const { run, state } of torchRunsToAdopt(this.store(workspace))) {
      if (this.runJobs.has(run.id) && this.jobs.list().some((j) => j.id === this.runJobs.get(run.id)!.jobId && (j.state === 'queued' || j.state === 'running'))) continue;
      if (state === 'ended') {
        const out = await adoptTorchRun(run, { onLog: (message) => this.emit({ type: 'log', level: 'info', message: `run ${run.id}: ${message}` }) });
        this.runEvent(run.id, out.state, { ...(out.reason ? { reason: out.reason } : {}), epoch: out.epoch, step: out.step });
        ended.push(run.id);
        continue;
      }
      if (run.readStatus().state === 'paused') {
        const gate = new PauseGate();
        gate.pause();
        this.gates.set(run.id, gate);
      }
      this.adopting.add(run.id);
      const job = this.jobs.start('train', { workspace, runId: run.id });
      this.runJobs.set(run.id, { jobId: job.id, workspace });
      following.push(run.id);
    }
    return { following, ended };
  }

  /** Marks a run refused before it started as failed (not left queued) and says why. */
  private refuse(run: RunHandle, epoch: number | undefined, message: string, field: string, prefix = ''): ApiError {
    run.writeStatus({ state: 'failed', pid: null, reason: `${prefix}${message}`, ...(epoch !== undefined ? { epoch } : {}) });
    run.log(`refused before starting: ${message}`);
    this.runEvent(run.id, 'failed', { reason: message });
    return new ApiError(message, 'invalid_params', { field });
  }

  pause(runId: string): boolean {
    if (!this.active.has(runId)) return false;
    if (!this.gates.has(runId)) {
      this.workers.get(runId)?.postMessage({ type: 'pause' } satisfies ToTrainWorker);
      const gate = new PauseGate();
      gate.pause();
      this.gates.set(runId, gate);
      this.runEvent(runId, 'paused');
    }
    return true;
  }

  /**
   * train.resume: a run whose trainer has already recorded its end (PyTorch writes 'stopped' and
   * exits) while its job still closes waits for that job (at most 10 s), instead of being refused
   * as still training.
   */
  async resumeWhenEnded(workspace: string, runId: string): Promise<{ ok: boolean; job?: JobSummary }> {
    const rec = this.runJobs.get(runId);
    const closing = () => {
      if (!rec || this.gates.has(runId) || !this.jobs.list().some((j) => j.id === rec.jobId && j.state === 'running')) return false;
      const st = this.store(workspace).open(runId).readStatus(this.isActive).state;
      return st !== 'running' && st !== 'paused';
    };
    for (const t0 = Date.now(); closing() && Date.now() - t0 < 10_000;) await new Promise((r) => setTimeout(r, 50));
    return this.resume(workspace, runId);
  }

  /** Continues a paused run; otherwise queues it to resume from its last checkpoint. */
  resume(workspace: string, runId: string): { ok: boolean; job?: JobSummary } {
    if (this.openGate(runId)) {
      this.workers.get(runId)?.postMessage({ type: 'resume' } satisfies ToTrainWorker);
      this.runEvent(runId, 'running');
      return { ok: true };
    }
    return { ok: true, job: this.start(workspace, runId) };
  }

  /**
   * Stops a run's job; a run with no job here that is left queued or interrupted (its job failed
   * or its engine died) is marked stopped, so it can be deleted or resumed. A run another process
   * trains is not this engine's to stop.
   */
  stop(runId: string, workspace?: string): boolean {
    const rec = this.runJobs.get(runId);
    const job = rec ? this.jobs.list().find((j) => j.id === rec.jobId) : undefined;
    if (!rec || !job || (job.state !== 'queued' && job.state !== 'running')) return workspace ? this.stopOrphan(workspace, runId) : false;
    if (job.state === 'queued' && this.adopting.has(runId)) {
      // its Python trains while the job waits for a slot: stop that, not the job's plan
      this.jobs.cancel(rec.jobId);
      this.adopting.delete(runId);
      return this.stopOrphan(rec.workspace, runId);
    }
    if (job.state === 'queued') {
      const run = this.store(rec.workspace).open(runId);
      const st = run.readStatus();
      run.writeStatus({ state: 'stopped', pid: process.pid, reason: 'stopped by the user before it started', ...(st.epoch !== undefined ? { epoch: st.epoch } : {}) });
      this.runEvent(runId, 'stopped', { reason: 'stopped by the user before it started' });
    }
    const ok = this.jobs.cancel(rec.jobId);
    this.openGate(runId);
    return ok;
  }

  /**
   * jobs.cancel of a train job goes through stop(), so a run cancelled while queued is marked
   * stopped in status.json and runs.list (not left 'queued' for good); null for other jobs.
   */
  cancelJob(jobId: string): boolean | null {
    for (const [runId, rec] of this.runJobs) if (rec.jobId === jobId) return this.stop(runId);
    return null;
  }

  /** Lets a paused run's loop continue and forgets its gate; false when it was not paused. */
  private openGate(runId: string): boolean {
    const g = this.gates.get(runId);
    if (!g) return false;
    this.gates.delete(runId);
    g.resume();
    return true;
  }

  private stopOrphan(workspace: string, runId: string): boolean {
    let run;
    try {
      run = this.store(workspace).open(runId);
    } catch {
      return false;
    }
    const st = run.readStatus(this.isActive);
    const holder = runLockHolder(run.dir);
    // A PyTorch run an earlier engine started trains on after that engine ended: stop it the way
    // a job would (SIGTERM: it ends at the next step, checkpoints/last keeps the last epoch).
    if ((st.state === 'running' || st.state === 'paused') && holder?.owner.startsWith('PyTorch') && holder.pid !== process.pid && holder.host === hostname()) {
      process.kill(holder.pid, 'SIGTERM');
      run.log(`stop asked: sent SIGTERM to the PyTorch process ${holder.pid} (started by an earlier engine)`);
      return true;
    }
    if (st.state !== 'queued' && st.state !== 'interrupted') return false;
    if (holder && holder.pid !== process.pid) return false;
    const reason = `stopped by the user (${st.state === 'queued' ? 'it was queued with no job to run it' : st.reason ?? 'interrupted'})`;
    run.writeStatus({ state: 'stopped', pid: null, reason, ...(st.epoch !== undefined ? { epoch: st.epoch } : {}) });
    run.log(reason);
    this.runEvent(runId, 'stopped', { reason });
    return true;
  }

  private async runJob(p: JobParams['train'], ctx: JobContext): Promise<unknown> {
    const { workspace, runId } = p;
    const run = this.store(workspace).open(runId);
    const cfgBackend = parseRunConfig(run.readConfig(), run.configPath).backend;
    let eta: number | null = null;
    const rate = new StepEta();
    const throttle = new MetricsThrottle((steps, epoch) => {
      this.emit({ type: 'metrics', runId, steps, ...(epoch ? { epoch } : {}), etaSeconds: eta });
    });
    let epochs = 1;
    let totalSteps = 1;
    let stepsPerEpoch = 1;
    let lastProgress = 0;
    const adopted = this.adopting.has(runId);
    this.active.set(runId, run.dir);
    this.runEvent(runId, this.gates.get(runId)?.paused ? 'paused' : 'running');
    try {
      const hooks: LoopHooks = {
        signal: ctx.signal,
        onStep: (s) => {
          rate.step();
          eta = rate.eta(s.step, s.epoch, epochs, stepsPerEpoch);
          throttle.step(s);
          const now = Date.now();
          if (now - lastProgress >= 250) {
            lastProgress = now;
            ctx.progress(Math.min(1, s.step / totalSteps), `epoch ${s.epoch}/${epochs}, step ${s.step}, loss ${s.loss.toPrecision(4)}`, eta);
          }
        },
        onEpoch: (e) => {
          rate.epoch(e.epochSeconds, stepsPerEpoch);
          eta = rate.eta(e.epoch * stepsPerEpoch, e.epoch + 1, epochs, stepsPerEpoch);
          throttle.epoch(e);
          ctx.progress(e.epoch / epochs, `epoch ${e.epoch}/${epochs}: val relL2 ${e.val.relL2.toPrecision(4)}`, eta);
        },
        onPlan: (_plan, steps) => {
          epochs = steps.epochs;
          totalSteps = steps.totalSteps;
          stepsPerEpoch = steps.stepsPerEpoch;
        },
        onLog: (message) => this.emit({ type: 'log', level: 'info', message: `run ${runId}: ${message}` }),
      };
      let out: RunOutcome | null = null;
      if (adopted) {
        // following a file and a pid: light work, in the engine thread
        out = await adoptTorchRun(run, { ...hooks, isPaused: () => this.gates.get(runId)?.paused ?? false });
      } else if (!this.inThread) {
        // the run's own backend, else the one the engine chose (the worker then probes nothing); a
        // torch run's worker drives PyTorch and builds the starting weights on cpu
        const torch = cfgBackend === 'torch';
        const r = await this.inWorker({ workspace, runId, ...(torch ? { backend: 'cpu', torch } : { backend: cfgBackend ?? (await initBackend()).active }) }, hooks);
        if (r === 'backend-failed') hooks.onLog('the training worker could not start (or could not load a backend); training in the engine thread');
        else out = r;
      }
      if (!out) {
        await initBackend();
        if (cfgBackend && cfgBackend !== 'torch' && cfgBackend !== tf.getBackend() && !(cfgBackend.startsWith('tensorflow') && tf.getBackend() === 'tensorflow')) {
          await selectBackend(cfgBackend);
        }
        out = await (cfgBackend === 'torch' ? trainTorchRun : trainRun)(run, {
          isPaused: () => this.gates.get(runId)?.paused ?? false,
          python: pythonCommand(readSettings().python),
          owner: 'the engine',
          workspace,
          signal: ctx.signal,
          waitIfPaused: () => this.gates.get(runId)?.wait() ?? Promise.resolve(),
          onStep: hooks.onStep,
          onEpoch: hooks.onEpoch,
          onPlan: hooks.onPlan,
          onLog: hooks.onLog,
        });
      }
      await throttle.drain();
      this.runEvent(runId, out.state, { ...(out.reason ? { reason: out.reason } : {}), epoch: out.epoch, step: out.step });
      if (out.state === 'failed') throw new Error(out.reason ?? 'training failed');
      return { runId, state: out.state, epoch: out.epoch, step: out.step, val: out.last?.val ?? null };
    } catch (e) {
      await throttle.drain();
      // Another process took the run between start and now: its status is that writer's.
      if (e instanceof RunLockedError) {
        this.runEvent(runId, run.readStatus().state, { reason: e.message });
        throw e;
      }
      const st = run.readStatus();
      if (st.state !== 'failed' && st.state !== 'stopped' && st.state !== 'done') {
        // The loop never recorded its end (a backend that would not start, a worker that died):
        // the run must not stay queued or running for good.
        const reason = errorMessage(e);
        run.writeStatus({ state: 'failed', pid: process.pid, reason, ...(st.epoch !== undefined ? { epoch: st.epoch } : {}), ...(st.step !== undefined ? { step: st.step } : {}) });
        run.log(`failed: ${reason}`);
        this.runEvent(runId, 'failed', { reason });
      } else if (st.state === 'failed') this.runEvent(runId, 'failed', { ...(st.reason ? { reason: st.reason } : {}) });
      throw e;
    } finally {
      this.adopting.delete(runId);
      this.active.delete(runId);
      this.gates.delete(runId);
      releaseOwnLeftoverLock(run.dir);
    }
  }

  /** The loop in its worker thread, tracked for pause and resume messages. */
  private inWorker(input: TrainWorkerInput, hooks: LoopHooks): Promise<RunOutcome | 'backend-failed'> {
    return runInTrainWorker(input, hooks, {
      paused: this.gates.has(input.runId),
      track: (w) => (w ? this.workers.set(input.runId, w) : this.workers.delete(input.runId)),
    });
  }
}
