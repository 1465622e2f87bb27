// The training loop in a worker thread of the engine process, so the engine's main thread keeps
// answering calls (ping, runs, pause/stop) while a long step runs. One run per worker; talks to
// main/engine/train-jobs.ts with the messages below. Its own TensorFlow.js instance and backend.
import { parentPort, workerData } from 'node:worker_threads';
import { join } from 'node:path';
import { preferTrainingThreads, selectBackend } from '../ops/backend';
import { RunStore } from '../runs/run-store';
import { trainRun } from '../train/runner';
import { trainTorchRun } from '../train/torch-run';
import { pythonCommand } from '../train/torch-probe';
import { readSettings } from '../workspace/settings';
import { RunLockedError } from '../runs/run-lock';
import { PauseGate } from '../util/pause-gate';
import { errorMessage } from '../util/error-message';
import type { EpochRecord, StepRecord } from '../train/trainer';
import type { MemoryPlan } from '../train/memory';
import type { RunOutcome, RunSteps } from '../train/runner';

export interface TrainWorkerInput {
  workspace: string;
  runId: string;
  backend?: string;
  /** config backend 'torch': PyTorch trains (main/train/torch-run.ts); `backend` only builds the initial weights. */
  torch?: boolean;
}

export type ToTrainWorker = { type: 'pause' } | { type: 'resume' } | { type: 'stop' };

export type FromTrainWorker =
  | { type: 'backend'; active: string }
  | { type: 'plan'; plan: MemoryPlan; steps: RunSteps }
  | { type: 'step'; step: StepRecord }
  | { type: 'epoch'; epoch: EpochRecord }
  | { type: 'paused' }
  | { type: 'log'; message: string }
  | { type: 'done'; outcome: RunOutcome }
  | { type: 'error'; message: string; backendFailed?: boolean; locked?: boolean };

const port = parentPort!;
const input = workerData as TrainWorkerInput;
const send = (m: FromTrainWorker) => port.postMessage(m);

const controller = new AbortController();
const gate = new PauseGate();
port.on('message', (m: ToTrainWorker) => {
  if (m.type === 'pause') gate.pause();
  else if (m.type === 'resume') gate.resume();
  else if (m.type === 'stop') {
    controller.abort();
    gate.resume();
  }
});

async function main() {
  let active: string;
  try {
    preferTrainingThreads();
    active = (await selectBackend(input.backend || process.env.LINO_BACKEND || undefined)).active;
  } catch (e) {
    send({ type: 'error', message: errorMessage(e), backendFailed: true });
    return;
  }
  send({ type: 'backend', active });
  try {
    const run = new RunStore(join(input.workspace, 'runs')).open(input.runId);
    const outcome = await (input.torch ? trainTorchRun : trainRun)(run, {
      isPaused: () => gate.paused,
      python: pythonCommand(readSettings().python),
      owner: 'the engine',
      workspace: input.workspace,
      signal: controller.signal,
      waitIfPaused: () => gate.wait(),
      onStep: (step) => send({ type: 'step', step }),
      onEpoch: (epoch) => send({ type: 'epoch', epoch }),
      onPlan: (plan, steps) => send({ type: 'plan', plan, steps }),
      onLog: (message) => send({ type: 'log', message }),
    });
    send({ type: 'done', outcome });
  } catch (e) {
    send({ type: 'error', message: errorMessage(e), ...(e instanceof RunLockedError ? { locked: true } : {}) });
  }
}

void main();
