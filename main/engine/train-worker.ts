// The training loop in a worker thread of the engine process, so the engine's main thread keeps
// answering calls (ping, runs, pause/stop) while a long step runs. One run per worker; talks to
// main/engine/train-jobs.ts with the messages below. Its own TensorFlow.js instance and backend.
import { parentPort, workerData } from 'node:worker_threads';
import { join } from 'node:path';
import { selectBackend } from '../ops/backend';
import { RunStore } from '../runs/run-store';
import { trainRun } from '../train/runner';
import { RunLockedError } from '../runs/run-lock';
import type { EpochRecord, StepRecord } from '../train/trainer';
import type { MemoryPlan } from '../train/memory';
import type { RunOutcome, RunSteps } from '../train/runner';

export interface TrainWorkerInput {
  workspace: string;
  runId: string;
  backend?: string;
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
let gate: { promise: Promise<void>; open: () => void } | null = null;
port.on('message', (m: ToTrainWorker) => {
  if (m.type === 'pause' && !gate) {
    let open!: () => void;
    const promise = new Promise<void>((r) => (open = r));
    gate = { promise, open };
  } else if (m.type === 'resume' && gate) {
    gate.open();
    gate = null;
  } else if (m.type === 'stop') {
    controller.abort();
    gate?.open();
    gate = null;
  }
});

async function main() {
  let active: string;
  try {
    active = (await selectBackend(input.backend || process.env.LINO_BACKEND || undefined)).active;
  } catch (e) {
    send({ type: 'error', message: (e as Error).message, backendFailed: true });
    return;
  }
  send({ type: 'backend', active });
  try {
    const run = new RunStore(join(input.workspace, 'runs')).open(input.runId);
    const outcome = await trainRun(run, {
      owner: 'the engine',
      workspace: input.workspace,
      signal: controller.signal,
      waitIfPaused: () => gate?.promise ?? Promise.resolve(),
      onStep: (step) => send({ type: 'step', step }),
      onEpoch: (epoch) => send({ type: 'epoch', epoch }),
      onPlan: (plan, steps) => send({ type: 'plan', plan, steps }),
      onLog: (message) => send({ type: 'log', message }),
    });
    send({ type: 'done', outcome });
  } catch (e) {
    send({ type: 'error', message: e instanceof Error ? e.message : String(e), ...(e instanceof RunLockedError ? { locked: true } : {}) });
  }
}

void main();
