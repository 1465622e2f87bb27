// The training loop's worker thread as the engine drives it: start it with the run (and the backend
// the engine chose), relay its step, epoch, plan and log messages to the run's hooks, ask it to stop
// or pause, and tell a worker that could not start (the caller trains in its own thread) from one
// that failed while training.
import type { Worker } from 'node:worker_threads';
import { spawnWorker } from '../util/workers';
import type { FromTrainWorker, ToTrainWorker, TrainWorkerInput } from './train-worker';
import type { MemoryPlan } from '../train/memory';
import type { RunOutcome, RunSteps } from '../train/runner';
import type { StepRecord, EpochRecord } from '../train/trainer';
import { RunLockedError } from '../runs/run-lock';

/** Hooks of one run, wherever its loop runs (worker thread or this thread). */
export interface LoopHooks {
  signal: AbortSignal;
  onStep: (s: StepRecord) => void;
  onEpoch: (e: EpochRecord) => void;
  onPlan: (p: MemoryPlan, steps: RunSteps) => void;
  onLog: (m: string) => void;
}

/**
 * Runs the loop in a worker thread; 'backend-failed' when the worker cannot start a backend (the
 * caller then trains in its own thread). `paused`: the run was paused before its worker started;
 * `track` hears the worker while it runs (null once it ended), for pause and resume messages.
 */
export function runInTrainWorker(input: TrainWorkerInput, hooks: LoopHooks, o: { paused: boolean; track: (w: Worker | null) => void }): Promise<RunOutcome | 'backend-failed'> {
  return new Promise((resolve, reject) => {
    const worker = spawnWorker('train', input);
    if (!worker) return resolve('backend-failed'); // a bundle without train-worker.js: this thread trains
    o.track(worker);
    let settled = false;
    const settle = (fn: () => void) => {
      if (settled) return;
      settled = true;
      hooks.signal.removeEventListener('abort', onAbort);
      o.track(null);
      void worker.terminate();
      fn();
    };
    const onAbort = () => worker.postMessage({ type: 'stop' } satisfies ToTrainWorker);
    hooks.signal.addEventListener('abort', onAbort);
    if (hooks.signal.aborted) onAbort();
    if (o.paused) worker.postMessage({ type: 'pause' } satisfies ToTrainWorker);
    let started = false; // the worker loaded and chose its backend
    worker.on('message', (m: FromTrainWorker) => {
      if (m.type === 'backend') started = true;
      switch (m.type) {
        case 'step': return hooks.onStep(m.step);
        case 'epoch': return hooks.onEpoch(m.epoch);
        case 'plan': return hooks.onPlan(m.plan, m.steps);
        case 'log': return hooks.onLog(m.message);
        case 'done': return settle(() => resolve(m.outcome));
        case 'error': return settle(() => (m.backendFailed ? resolve('backend-failed') : reject(m.locked ? new RunLockedError(input.runId, null, m.message) : new Error(m.message))));
        default: return undefined;
      }
    });
    // A worker that cannot even load (a bundle without its entry, a native backend that refuses
    // worker threads) falls back to the engine thread; one that dies while training fails the job.
    worker.on('error', (e) => settle(() => (started ? reject(e) : resolve('backend-failed'))));
    worker.on('exit', (code) => settle(() => (started ? reject(new Error(`the training worker exited (code ${code}) before finishing`)) : resolve('backend-failed'))));
  });
}
