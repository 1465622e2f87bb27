// Sweeps in the engine: each running sweep is a SweepRunner whose trials start through
// TrainingJobs.start (train.start's path: the run's checks, the job queue, the worker thread) and
// whose rungs are read from the training events; a pruned trial is stopped like the Stop button
// does. A sweep is not a queue job itself (the queue runs one job at a time: its trials must run).
import { ApiError, type WorkbenchEvent } from '../api/contract';
import type { TrainingJobs } from './train-jobs';
import { PauseGate } from '../util/pause-gate';
import { errorMessage } from '../util/error-message';
import { parseSweepConfig, type SweepConfig } from '../sweep/sweep-config';
import { listSweepIds, openOrCreateSweep, readSweepConfig, readSweepState, type SweepState } from '../sweep/sweep-state';
import { SweepRunner, type TrialExecutor } from '../sweep/sweep-runner';
import { plannedTrials } from '../sweep/sampler';
import { checkTrialConfigs } from '../sweep/trial-configs';
import { tf } from './tf-runtime';
import { analyzeSweep, type SweepAnalysis } from '../sweep/sweep-analysis';
import type { SweepDetail, SweepSummary } from '../sweep/sweep-types';

interface Active { runner: SweepRunner; controller: AbortController; gate: PauseGate; trial: string | null; done: Promise<SweepState> }

export class SweepJobs {
  private readonly active = new Map<string, Active>();
  private readonly listeners = new Set<(e: WorkbenchEvent) => void>();
  /** Per sweep, its last analysis and the trials it came from: a view re-reads every second while a
   * sweep runs, and the importance forest (tens of ms) would otherwise be grown again on each read. */
  private readonly analyses = new Map<string, { key: string; analysis: SweepAnalysis }>();

  constructor(private readonly training: TrainingJobs, private readonly log: (message: string) => void) {}

  /** Every training event passes here (rungs, ends of trials). */
  onEvent(e: WorkbenchEvent): void {
    for (const l of [...this.listeners]) l(e);
  }

  private executor(workspace: string, sweepId: string): TrialExecutor {
    return (run, hooks) => new Promise((resolve, reject) => {
      const a = this.active.get(sweepId);
      const stop = () => this.training.stop(run.id, workspace);
      const done = (v: { state: 'done' | 'failed' | 'stopped'; reason?: string }) => {
        this.listeners.delete(listener);
        hooks.signal.removeEventListener('abort', stop);
        if (a) a.trial = null;
        resolve(v);
      };
      const listener = (e: WorkbenchEvent) => {
        if (e.type === 'metrics' && e.runId === run.id && e.epoch && hooks.onEpoch(e.epoch.epoch, e.epoch.val.relL2) === 'prune') stop();
        if (e.type === 'run' && e.runId === run.id && (e.state === 'done' || e.state === 'failed' || e.state === 'stopped')) done({ state: e.state, ...(e.reason ? { reason: e.reason } : {}) });
      };
      this.listeners.add(listener);
      hooks.signal.addEventListener('abort', stop);
      try {
        this.training.start(workspace, run.id);
        if (a) a.trial = run.id;
      } catch (err) {
        this.listeners.delete(listener);
        hooks.signal.removeEventListener('abort', stop);
        reject(err);
      }
    });
  }

  /** Starts (or resumes) a sweep from a sweep file's content. */
  async start(workspace: string, raw: unknown, id?: string): Promise<SweepSummary> {
    let sweep;
    try {
      sweep = parseSweepConfig(raw, 'sweeps.start: config');
      // each trial is a run: refused here as train.start would refuse it (the same engine backend)
      await checkTrialConfigs(sweep, 'sweeps.start: config', process.env.LINO_BACKEND ?? tf.getBackend());
    } catch (e) {
      throw new ApiError(errorMessage(e), 'invalid_params', { field: 'config' });
    }
    let opened;
    try {
      opened = openOrCreateSweep(workspace, sweep, id);
    } catch (e) {
      throw new ApiError(errorMessage(e), 'invalid_params', { field: 'id' });
    }
    this.launch(workspace, opened.id);
    return this.summary(workspace, opened.id);
  }

  private launch(workspace: string, id: string): void {
    if (this.active.has(id)) return;
    const controller = new AbortController();
    const gate = new PauseGate();
    const runner = new SweepRunner(workspace, id, this.executor(workspace, id), { signal: controller.signal, waitIfPaused: () => gate.wait(), owner: 'the engine' });
    let release: () => void;
    try {
      // another process on this sweep (a `lino sweep`, a second engine) is refused naming it
      release = runner.hold();
    } catch (e) {
      throw new ApiError(errorMessage(e), 'invalid_params', { field: 'id' });
    }
    try {
      // a preset's runs (the ablation's seed groups) are all listed from the start, as train.start's seeds are
      if (readSweepConfig(workspace, id).groups) runner.planAll();
    } catch (e) {
      release();
      throw e;
    }
    const entry: Active = { runner, controller, gate, trial: null, done: Promise.resolve(runner.current) };
    this.active.set(id, entry);
    entry.done = runner.run().then((s) => {
      this.log(`sweep ${id}: ${s.status}${s.reason ? ` (${s.reason})` : ''}`);
      return s;
    }).finally(() => {
      release();
      this.active.delete(id);
    });
  }

  control(workspace: string, id: string, action: 'pause' | 'resume' | 'stop'): SweepSummary {
    readSweepState(workspace, id); // an unknown sweep is refused
    const a = this.active.get(id);
    if (action === 'resume') {
      if (!a) this.launch(workspace, id);
      else if (a.gate.paused) {
        a.gate.resume();
        if (a.trial) this.training.resume(workspace, a.trial);
      }
    } else if (a && action === 'pause') {
      a.gate.pause();
      if (a.trial) this.training.pause(a.trial);
    } else if (a && action === 'stop') {
      a.controller.abort();
      a.gate.resume();
    }
    return this.summary(workspace, id);
  }

  summary(workspace: string, id: string): SweepSummary {
    const s = this.active.get(id)?.runner.current ?? readSweepState(workspace, id);
    const config = readSweepConfig(workspace, id);
    const ended = s.trials.filter((t) => t.state === 'done' || t.state === 'pruned' || t.state === 'failed');
    const bests = s.trials.map((t) => t.best).filter((b): b is number => b !== null);
    const a = this.active.get(id);
    return {
      id, name: s.name, method: config.method, status: a ? (a.gate.paused ? 'paused' : 'running') : s.status === 'running' || s.status === 'paused' ? 'stopped' : s.status,
      ...(s.reason ? { reason: s.reason } : !a && (s.status === 'running' || s.status === 'paused') ? { reason: 'interrupted: resume continues it' } : {}),
      trials: s.trials.length, ...plannedTrials(config), ended: ended.length, pruned: s.trials.filter((t) => t.state === 'pruned').length, failed: s.trials.filter((t) => t.state === 'failed').length,
      best: bests.length ? Math.min(...bests) : null, wallSeconds: s.wallSeconds, active: !!a, paused: !!a?.gate.paused,
    };
  }

  list(workspace: string): SweepSummary[] {
    return listSweepIds(workspace).flatMap((id) => {
      try {
        return [this.summary(workspace, id)];
      } catch {
        return []; // a damaged sweep folder is not listed (sweeps.get names its problem)
      }
    });
  }

  get(workspace: string, id: string): SweepDetail {
    let state: SweepState, config;
    try {
      state = this.active.get(id)?.runner.current ?? readSweepState(workspace, id);
      config = readSweepConfig(workspace, id);
    } catch (e) {
      throw new ApiError(errorMessage(e), 'invalid_params', { field: 'id' });
    }
    return { summary: this.summary(workspace, id), config, state, analysis: this.analysis(workspace, id, config, state) };
  }

  private analysis(workspace: string, id: string, config: SweepConfig, state: SweepState): SweepAnalysis {
    // what the analysis reads: the configuration, each trial's configuration, state and metric
    const key = JSON.stringify([workspace, config, state.configs.length, state.trials.map((t) => [t.runId, t.config, t.state, t.best])]);
    const cached = this.analyses.get(id);
    if (cached && cached.key === key) return cached.analysis;
    const analysis = analyzeSweep(config, state);
    this.analyses.set(id, { key, analysis });
    return analysis;
  }

  /** Tests: resolves when the sweep's runner ends (at once when none runs). */
  settled(id: string): Promise<SweepState | null> {
    return this.active.get(id)?.done ?? Promise.resolve(null);
  }
}
