// Runs a sweep: draws configurations from its Sampler (grid, random, TPE: ./sampler.ts), trains each
// one's seeds as ordinary runs through a TrialExecutor (the CLI trains in its process, the engine
// through its training jobs), asks its Pruner (none, ASHA: ./pruner.ts) at the rungs, and keeps sweeps/<id>/state.json current after every change. A re-run
// after a crash (kill -9 included) picks up where the state says: a trial whose run exists is
// resumed from its last checkpoint, a rung reached but not recorded is decided from the run's
// metrics, a run that finished is only recorded. No trial is started twice, none is lost.
// One process at a time works on a sweep (sweeps/<id>/sweep.lock, the run lock's rules: a second
// one is refused naming the holder); under the lock the state is read again and each trial is
// reconciled with its run's own status.json and metrics.jsonl, which are the truth when the state
// was written by an older process (or another one, before the lock existed).
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { RunHandle, RunState } from '../runs/run-store';
import { RunStore } from '../runs/run-store';
import { acquireLock, type RunLock } from '../runs/run-lock';
import { writeJsonAtomic } from '../util/atomic-file';
import { errorMessage } from '../util/error-message';
import { assertPathSegment } from '../util/remove-tree';
import { applyParams, AxisValue, checkGridSize, type SweepConfig, type SweepParams } from './sweep-config';
import { formatZodIssues } from '../util/zod-issues';
import type { Observation } from './tpe';
import { samplerOf, type Sampler } from './sampler';
import { prunerOf, type Pruner } from './pruner';
import { readSweepConfig, readSweepState, sweepDir, writeSweepState, type SweepState, type SweepTrial, type TrialFile } from './sweep-state';

export interface TrialHooks {
  signal: AbortSignal;
  /** Called after each epoch: 'prune' asks the executor to stop the run now (it stays resumable). */
  onEpoch(epoch: number, valRelL2: number): 'continue' | 'prune';
}
export interface TrialOutcome { state: RunState; reason?: string }
/** Trains (or resumes) one run until it ends, is stopped, or a hook prunes it. */
export type TrialExecutor = (run: RunHandle, hooks: TrialHooks) => Promise<TrialOutcome>;

export interface SweepRunOptions {
  signal?: AbortSignal;
  /** Awaited before each trial starts (the app's pause). */
  waitIfPaused?: () => Promise<void>;
  onUpdate?: (state: SweepState) => void;
  now?: () => number;
  /** Who works on the sweep, written into its lock for the messages ('lino sweep', 'the engine'). */
  owner?: string;
}

export const SWEEP_LOCK = 'sweep.lock';

/** Takes sweeps/<id>/sweep.lock or throws RunLockedError naming the holder (the run lock's rules). */
export function lockSweep(workspace: string, id: string, owner: string): RunLock {
  return acquireLock({ id, dir: sweepDir(workspace, id), file: SWEEP_LOCK, noun: 'sweep', label: `sweep '${id}'`, busy: 'is being run by another process' }, owner);
}

/** Epoch records of a run: epoch number and normalized validation relL2 (a record with an epoch that is not a count or a value that is not finite and >= 0 is no epoch of it). */
export function runEpochs(run: RunHandle): { epoch: number; valRelL2: number }[] {
  return run.readMetrics().records.flatMap((r) => {
    const rec = r as { type?: string; epoch?: number; val?: { relL2?: number } };
    const ok = rec.type === 'epoch' && Number.isSafeInteger(rec.epoch) && rec.epoch! >= 1 && typeof rec.val?.relL2 === 'number' && Number.isFinite(rec.val.relL2) && rec.val.relL2 >= 0;
    return ok ? [{ epoch: rec.epoch!, valRelL2: rec.val!.relL2! }] : [];
  });
}

/** A trial's epochs trained and best value, from its run's epoch records. */
function epochSummary(epochs: { epoch: number; valRelL2: number }[]): { epochs: number; best: number | null } {
  return { epochs: epochs.length ? epochs[epochs.length - 1]!.epoch : 0, best: epochs.length ? Math.min(...epochs.map((e) => e.valRelL2)) : null };
}

/** A configuration's objective for TPE: the mean of its trials' best values (all its seeds must have ended). */
export function configObjectives(state: SweepState): Observation[] {
  return state.configs.flatMap((c) => {
    const ts = state.trials.filter((t) => t.config === c.index);
    if (ts.length === 0 || ts.some((t) => t.state === 'pending' || t.state === 'running')) return [];
    const vals = ts.map((t) => t.best ?? Infinity);
    return [{ params: c.params as SweepParams, value: vals.reduce((a, b) => a + b, 0) / vals.length }];
  });
}

export class SweepRunner {
  private readonly sweep: SweepConfig;
  private readonly sampler: Sampler;
  private readonly pruner: Pruner;
  private state: SweepState;
  private readonly store: RunStore;
  private readonly now: () => number;
  private mark: number;
  private lock: RunLock | null = null;

  constructor(private readonly workspace: string, private readonly idGiven: string, private readonly exec: TrialExecutor, private readonly opts: SweepRunOptions = {}) {
    this.sweep = readSweepConfig(workspace, idGiven);
    this.sampler = samplerOf(this.sweep);
    this.pruner = prunerOf(this.sweep);
    this.state = this.load();
    this.store = new RunStore(join(workspace, 'runs'));
    this.now = opts.now ?? Date.now;
    this.mark = this.now();
  }

  get current(): SweepState {
    return this.state;
  }

  /**
   * state.json, checked against the sweep: each configuration's params are values of the sweep's
   * own axes (the state's schema cannot know them), so a hand-edited or foreign state is refused
   * naming the file and the field before any of its configurations becomes a run.
   */
  private load(): SweepState {
    const id = this.idGiven;
    const state = readSweepState(this.workspace, id);
    const path = join(sweepDir(this.workspace, id), 'state.json');
    const paths = this.sweep.axes.map((a) => a.path);
    state.configs.forEach((c, i) => {
      const keys = Object.keys(c.params);
      if (keys.length !== paths.length || keys.some((k, j) => k !== paths[j])) {
        throw new Error(`${path}: not a state of this sweep (field 'configs.${i}.params': expected the axes ${paths.join(', ')} of ${join(sweepDir(this.workspace, id), 'sweep.json')}, got ${keys.slice(0, 8).join(', ') || 'none'})`);
      }
      for (const k of keys) {
        const r = AxisValue.safeParse(c.params[k]);
        if (!r.success) throw new Error(`${path}: not a sweep state (field 'configs.${i}.params.${k}': ${formatZodIssues(r.error.issues, c.params[k]).replace(/^field '[^']*': /, '')})`);
      }
    });
    return state;
  }

  /** The trial's configuration; a state whose trial names none is refused naming the field (checked at load too). */
  private configOf(t: SweepTrial): SweepParams {
    const c = this.state.configs[t.config];
    if (!c) throw new Error(`${join(sweepDir(this.workspace, this.state.id), 'state.json')}: field 'trials.${this.state.trials.indexOf(t)}.config': configuration ${t.config} does not exist (the state lists ${this.state.configs.length})`);
    return c.params as SweepParams;
  }

  /**
   * Takes the sweep's lock (a second process is refused with RunLockedError naming the holder,
   * before anything is written), reads the state again under it and reconciles it with the runs.
   * Returns its release; when this runner holds the lock already, a release that does nothing.
   */
  hold(): () => void {
    if (this.lock) return () => {};
    const lock = lockSweep(this.workspace, this.state.id, this.opts.owner ?? 'a sweep');
    this.lock = lock;
    const release = () => {
      if (this.lock !== lock) return;
      this.lock = null;
      lock.release();
    };
    try {
      this.state = this.load();
      this.reconcileRuns();
    } catch (e) {
      release();
      throw e;
    }
    return release;
  }

  /**
   * Each trial whose run exists, from the run's own records: epochs and best from metrics.jsonl; a
   * run that finished is a trial done; a trial recorded failed whose run did not fail (refused by
   * another writer's lock, a process that died) is resumed. A pruned trial stays pruned.
   */
  private reconcileRuns(): void {
    let changed = false;
    this.state.trials.forEach((t, i) => {
      assertPathSegment(t.runId, `trials[${i}].runId`);
      if (!existsSync(join(this.store.root, t.runId, 'config.json'))) return;
      const run = this.store.open(t.runId);
      const st = run.readStatus();
      const next: SweepTrial = { ...t, ...epochSummary(runEpochs(run)) };
      if (st.state === 'done' && t.state !== 'done') next.state = 'done';
      else if (t.state === 'failed' && st.state !== 'failed') next.state = 'running';
      if (next.state !== 'failed') delete next.reason;
      if (JSON.stringify(next) !== JSON.stringify(t)) {
        this.state.trials[i] = next;
        changed = true;
      }
    });
    if (changed) this.save();
  }

  private save(): void {
    const t = this.now();
    this.state.wallSeconds += (t - this.mark) / 1000;
    this.mark = t;
    writeSweepState(this.workspace, this.state);
    this.opts.onUpdate?.(structuredClone(this.state));
  }

  /** Runs until the sweep is done, its budget is spent or the signal stops it; returns the state. */
  async run(): Promise<SweepState> {
    const release = this.hold();
    this.state.status = 'running';
    delete this.state.reason;
    this.save();
    try {
      for (;;) {
        if (this.opts.signal?.aborted) return this.end('stopped', 'stopped by the user');
        await this.opts.waitIfPaused?.();
        if (this.opts.signal?.aborted) return this.end('stopped', 'stopped by the user');
        const next = this.state.trials.find((t) => t.state === 'pending' || t.state === 'running');
        if (next) {
          await this.runTrial(next);
          continue;
        }
        const why = this.exhausted();
        if (why) return this.end('done', why);
        this.addConfiguration();
      }
    } catch (e) {
      return this.end('failed', errorMessage(e));
    } finally {
      release();
    }
  }

  private end(status: SweepState['status'], reason: string): SweepState {
    this.state.status = status;
    this.state.reason = reason;
    this.save();
    return structuredClone(this.state);
  }

  /** Why no configuration may be added (grid done, budget spent), or null. */
  private exhausted(): string | null {
    const { budget, seeds } = this.sweep;
    if (budget.maxWallSeconds !== undefined && this.state.wallSeconds >= budget.maxWallSeconds) return `budget: ${budget.maxWallSeconds} s of wall time spent`;
    if (budget.maxTrials !== undefined && this.state.trials.length + seeds > budget.maxTrials) return `budget: ${this.state.trials.length} of at most ${budget.maxTrials} trials`;
    const total = this.sampler.total;
    if (total !== null && this.state.configs.length >= total) return `${this.sweep.method} done: ${total} configurations`;
    return null;
  }

  /**
   * Every trial a grid or a random sweep will run, recorded as pending, with its run created (an
   * export for a cluster); TPE needs each result before its next draw and is refused.
   */
  planAll(): { trial: SweepTrial; run: RunHandle }[] {
    this.assertPlannable();
    const release = this.hold();
    try {
      // state.json is written once for all the configurations (before any of their runs exists)
      let added = false;
      while (!this.exhausted()) {
        this.addConfiguration(false);
        added = true;
      }
      if (added) this.save();
      return this.state.trials.filter((t) => t.state === 'pending').map((trial) => {
        const run = this.trialRun(trial);
        this.writeTrialFile(run, trial);
        return { trial, run };
      });
    } finally {
      release();
    }
  }

  /** Throws unless planAll can list every trial: TPE cannot, random needs its budget, a grid must be bounded. */
  assertPlannable(): void {
    if (this.sampler.unplannable) throw new Error(`sweep '${this.state.id}': ${this.sampler.unplannable}`);
    checkGridSize(this.sweep, `sweep '${this.state.id}'`);
  }

  private addConfiguration(save = true): void {
    const { seeds } = this.sweep;
    const k = this.state.configs.length;
    const params = this.sampler.suggest(k, configObjectives(this.state));
    const cfg = applyParams(this.sweep.base, params);
    const baseSeed = typeof cfg.seed === 'number' ? cfg.seed : 42;
    const epochs = typeof cfg.epochs === 'number' ? cfg.epochs : 500;
    const rungs = this.pruner.rungs(epochs);
    this.state.configs.push({ index: k, params });
    for (let s = 0; s < seeds; s++) {
      const seed = baseSeed + s;
      this.state.trials.push({ runId: `${this.state.id}-c${k}-s${seed}`, config: k, seedIndex: s, seed, state: 'pending', rungs, rungHistory: [], best: null, epochs: 0, wallSeconds: 0 });
    }
    if (save) this.save();
  }

  /**
   * The trial's run: opened, or created. The id comes from state.json, a file a user may have
   * copied or edited: it is checked before any disk operation, and a folder of that name that is
   * not a run (no config.json; RunStore.create never leaves one) is refused, never removed.
   */
  private trialRun(t: SweepTrial): RunHandle {
    assertPathSegment(t.runId, `trials[${this.state.trials.indexOf(t)}].runId`);
    const dir = join(this.store.root, t.runId);
    if (existsSync(join(dir, 'config.json'))) return this.store.open(t.runId);
    if (existsSync(dir)) throw new Error(`sweep '${this.state.id}': trial run folder ${dir} exists but is not a run (no config.json); move it out of runs/ and run the sweep again`);
    const params = this.configOf(t);
    const cfg = applyParams(this.sweep.base, params);
    const preset = this.sweep.groups?.[t.config];
    const name = preset ? preset.name : `${this.sweep.name} c${t.config}`;
    return this.store.create({ ...cfg, seed: t.seed, group: preset ? preset.group : `${this.state.id}-c${t.config}`, name: `${name} (seed ${t.seed})` }, t.runId);
  }

  private writeTrialFile(run: RunHandle, t: SweepTrial): void {
    const file: TrialFile = { sweepId: this.state.id, config: t.config, params: this.configOf(t), seed: t.seed, rungs: t.rungs, rungHistory: t.rungHistory };
    writeJsonAtomic(join(run.dir, 'sweep-trial.json'), file);
  }

  /** The pruner at one rung: recorded against the values other trials recorded at the same epoch. */
  private decide(t: SweepTrial, epoch: number, value: number): 'continue' | 'prune' {
    if (!t.rungs.includes(epoch) || t.rungHistory.some((r) => r.epoch === epoch)) return 'continue';
    const before = this.state.trials.flatMap((o) => (o === t ? [] : o.rungHistory.filter((r) => r.epoch === epoch && r.valRelL2 !== null).map((r) => r.valRelL2!)));
    const decision = this.pruner.decide(value, before);
    t.rungHistory.push({ epoch, valRelL2: Number.isFinite(value) ? value : null, decision });
    return decision;
  }

  /** Rungs the run passed that the state has not recorded (a crash after the epoch): decided now, in epoch order. */
  private reconcile(t: SweepTrial, run: RunHandle): boolean {
    const epochs = runEpochs(run);
    Object.assign(t, epochSummary(epochs));
    for (const e of epochs) if (this.decide(t, e.epoch, e.valRelL2) === 'prune') return true;
    return t.rungHistory.some((r) => r.decision === 'prune');
  }

  private async runTrial(t: SweepTrial): Promise<void> {
    const run = this.trialRun(t);
    const status = run.readStatus();
    let pruned = this.reconcile(t, run);
    // A run that finished (here before a crash, or on a cluster) is done whatever its rungs say.
    if (pruned || status.state === 'done') {
      this.finishTrial(t, run, status.state === 'done' ? 'done' : 'pruned');
      return;
    }
    t.state = 'running';
    this.writeTrialFile(run, t);
    this.save();
    const started = this.now();
    const controller = new AbortController();
    const onAbort = () => controller.abort();
    this.opts.signal?.addEventListener('abort', onAbort);
    let outcome: TrialOutcome;
    try {
      outcome = await this.exec(run, {
        signal: controller.signal,
        onEpoch: (epoch, value) => {
          t.epochs = epoch;
          t.best = t.best === null ? value : Math.min(t.best, value);
          const d = this.decide(t, epoch, value);
          if (d === 'prune') pruned = true;
          this.writeTrialFile(run, t);
          this.save();
          return d;
        },
      });
    } catch (e) {
      outcome = { state: 'failed', reason: errorMessage(e) };
    } finally {
      this.opts.signal?.removeEventListener('abort', onAbort);
    }
    t.wallSeconds += (this.now() - started) / 1000;
    if (pruned) this.finishTrial(t, run, 'pruned');
    else if (outcome.state === 'done') this.finishTrial(t, run, 'done');
    else if (outcome.state === 'failed') this.finishTrial(t, run, 'failed', outcome.reason);
    else this.save(); // stopped by the user: stays 'running', resumed by the next run of the sweep
  }

  private finishTrial(t: SweepTrial, run: RunHandle, state: 'done' | 'pruned' | 'failed', reason?: string): void {
    Object.assign(t, epochSummary(runEpochs(run)));
    t.state = state;
    if (reason) t.reason = reason;
    if (state === 'pruned') {
      const st = run.readStatus();
      if (st.state !== 'done') run.writeStatus({ state: 'stopped', pid: null, reason: `pruned by sweep ${this.state.id} (ASHA) at epoch ${t.epochs}`, epoch: t.epochs });
    }
    this.writeTrialFile(run, t);
    this.save();
  }
}
