// One job of a lane beside training (job-worker-kinds.ts) in a worker thread of the engine process:
// its own TensorFlow.js instance and backend, so the engine thread keeps answering calls while it
// runs. Talks to main/engine/job-worker-run.ts with the messages below.
import { parentPort, workerData } from 'node:worker_threads';
import { selectBackend } from '../ops/backend';
import { errorMessage } from '../util/error-message';
import { isWorkerJobKind, WORKER_JOBS, type WorkerJobKind } from './job-worker-kinds';
import type { JobContext } from './jobs';
import type { JobParams } from './job-params';

/** A worker job kind and its parameters (JobParams), as the engine thread posts them. */
export interface JobWorkerInput<K extends WorkerJobKind = WorkerJobKind> {
  kind: K;
  params: JobParams[K];
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

/** The kind's body with its own parameters (K ties the two). */
function runJob<K extends WorkerJobKind>(job: JobWorkerInput<K>, ctx: JobContext): Promise<unknown> {
  const run: (params: JobParams[K], c: JobContext) => Promise<unknown> = WORKER_JOBS[job.kind];
  return run(job.params, ctx);
}

async function main() {
  try {
    send({ type: 'backend', active: (await selectBackend(input.backend || process.env.LINO_BACKEND || undefined)).active });
  } catch (e) {
    send({ type: 'error', message: errorMessage(e), backendFailed: true });
    return;
  }
  try {
    if (!isWorkerJobKind(input.kind)) throw new Error(`job worker: no worker job of kind '${String(input.kind)}'`);
    const result = await runJob(input, {
      signal: controller.signal,
      progress: (fraction, message, etaSeconds) => send({ type: 'progress', fraction, ...(message !== undefined ? { message } : {}), ...(etaSeconds !== undefined ? { etaSeconds } : {}) }),
    });
    send({ type: 'done', result });
  } catch (e) {
    send({ type: 'error', message: errorMessage(e) });
  }
}

void main();
