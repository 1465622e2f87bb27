// One job of a kind declared with a `worker` (JOB_KINDS, main/api/jobs.ts) in a worker thread of the engine process:
// its own TensorFlow.js instance and backend, so the engine thread keeps answering calls while it
// runs. Talks to main/engine/job-worker-run.ts with the messages below.
import { parentPort, workerData } from 'node:worker_threads';
import { setPriority } from 'node:os';
import { errorMessage } from '../util/error-message';
import { isWorkerJobKind, workerRunsTensors, type WorkerJobKind } from '../api/jobs';
import { loadJobBody } from './job-handlers';
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
  /** The result as JSON text: it crosses the engine thread as one string (json-text.ts). */
  | { type: 'done'; resultJson: string }
  | { type: 'error'; message: string; backendFailed?: boolean };

const port = parentPort!;
const input = workerData as JobWorkerInput;
const send = (m: FromJobWorker) => port.postMessage(m);
const controller = new AbortController();
port.on('message', (m: ToJobWorker) => {
  if (m.type === 'cancel') controller.abort();
});

/** The kind's body, loaded by this worker, with its own parameters (K ties the two). */
async function runJob<K extends WorkerJobKind>(job: JobWorkerInput<K>, ctx: JobContext): Promise<unknown> {
  const body = await loadJobBody(job.kind);
  return body.run(job.params, ctx);
}

/**
 * On Linux the nice value is per thread (setpriority of pid 0 is the calling thread; threads this one
 * starts, such as a generator's solvers, inherit it): the engine thread, which answers every call, is
 * then scheduled before a job's work on a machine with fewer cores than busy threads. Elsewhere it
 * would lower the whole engine process, so it is left alone there.
 */
function yieldToEngineThread(): void {
  if (process.platform !== 'linux') return;
  try {
    setPriority(0, 10);
  } catch {
    /* not permitted: the job runs at the engine's priority */
  }
}

async function main() {
  yieldToEngineThread();
  if (!isWorkerJobKind(input.kind)) return send({ type: 'error', message: `job worker: no worker job of kind '${String(input.kind)}'` });
  try {
    // a data job runs no tensors: no backend (nor tfjs) to load
    const active = workerRunsTensors(input.kind) ? (await (await import('../ops/backend')).selectBackend(input.backend || process.env.LINO_BACKEND || undefined)).active : 'none';
    send({ type: 'backend', active });
  } catch (e) {
    send({ type: 'error', message: errorMessage(e), backendFailed: true });
    return;
  }
  try {
    const result = await runJob(input, {
      signal: controller.signal,
      progress: (fraction, message, etaSeconds) => send({ type: 'progress', fraction, ...(message !== undefined ? { message } : {}), ...(etaSeconds !== undefined ? { etaSeconds } : {}) }),
    });
    send({ type: 'done', resultJson: JSON.stringify(result) ?? 'null' });
  } catch (e) {
    send({ type: 'error', message: errorMessage(e) });
  }
}

void main();
