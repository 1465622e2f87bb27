// One job of a lane beside training (job-worker-kinds.ts) in a worker thread of the engine process:
// its own TensorFlow.js instance and backend, so the engine thread keeps answering calls while it
// runs. Talks to main/engine/job-worker-run.ts with the messages below.
import { parentPort, workerData } from 'node:worker_threads';
import { errorMessage } from '../util/error-message';
import { WORKER_JOBS } from './job-worker-kinds';

export interface JobWorkerInput {
  kind: string;
  params: Record<string, unknown>;
  backend?: string;
}

export type ToJobWorker = { type: 'cancel' };

export type FromJobWorker =
  | { type: 'backend'; active: string }
  | { type: 'progress'; fraction: number; message?: string; etaSeconds?: number | null }
  | { type: 'done'; result: unknown }
  | { type: 'error'; message: string; backendFailed?: boolean };

const port = parentPort!;
const input = workerData as JobWorkerInput;
const send = (m: FromJobWorker) => port.postMessage(m);
const controller = new AbortController();
port.on('message', (m: ToJobWorker) => {
  if (m.type === 'cancel') controller.abort();
});

async function main() {
  const job = WORKER_JOBS[input.kind];
  if (!job) return send({ type: 'error', message: `job worker: no worker job of kind '${input.kind}'` });
  try {
    // a data job runs no tensors: no backend (nor tfjs) to load
    const active = job.backend ? (await (await import('../ops/backend')).selectBackend(input.backend || process.env.LINO_BACKEND || undefined)).active : 'none';
    send({ type: 'backend', active });
  } catch (e) {
    send({ type: 'error', message: errorMessage(e), backendFailed: true });
    return;
  }
  try {
    const run = await job.load();
    const result = await run(input.params, {
      signal: controller.signal,
      progress: (fraction, message, etaSeconds) => send({ type: 'progress', fraction, ...(message !== undefined ? { message } : {}), ...(etaSeconds !== undefined ? { etaSeconds } : {}) }),
    });
    send({ type: 'done', result });
  } catch (e) {
    send({ type: 'error', message: errorMessage(e) });
  }
}

void main();
