// Runs a job of a kind declared with a `worker` (JOB_KINDS) in its own worker thread (job-worker.ts);
// a worker that cannot start (or cannot load a backend) falls back to the engine thread, as training does.
import { spawnWorker } from '../util/workers';
import { workerRunsTensors, type WorkerJobKind } from '../api/jobs';
import type { JobContext, JobDefinition } from './jobs';
import type { JobParams } from './job-params';
import type { JobBody } from './job-handlers';
import type { FromJobWorker, JobWorkerInput, ToJobWorker } from './job-worker';
import { initBackend } from './tf-runtime';
import { JsonText } from './json-text';

/**
 * A worker kind's definition for the engine's queue: its `prepare` in the engine thread, then its body
 * in a worker unless LINO_JOBS_IN_THREAD=1 or the worker cannot start (then in the engine thread).
 */
export function inJobWorker<K extends WorkerJobKind>(kind: K, body: JobBody<K>): JobDefinition<JobParams[K]> {
  const run = async (given: JobParams[K], ctx: JobContext) => {
    const params = body.prepare ? await body.prepare(given, ctx) : given;
    if (process.env.LINO_JOBS_IN_THREAD !== '1') {
      // A tensor job's worker takes the backend the engine already chose instead of probing the
      // list again (the native packages, the webgpu adapter, then wasm: part of every worker's start).
      const backend = workerRunsTensors(kind) ? { backend: (await initBackend()).active } : {};
      const r = await runInWorker<K>({ kind, params, ...backend }, ctx);
      if (r.ok) return r.result;
    }
    await initBackend();
    return body.run(params, ctx);
  };
  return { label: body.label, run };
}

type Outcome = { ok: true; result: unknown } | { ok: false };

function runInWorker<K extends WorkerJobKind>(input: JobWorkerInput<K>, ctx: JobContext): Promise<Outcome> {
  return new Promise((resolve, reject) => {
    const worker = spawnWorker('job', input);
    if (!worker) return resolve({ ok: false }); // a bundle without job-worker.js: the engine thread runs it
    let settled = false;
    let started = false;
    // `terminate` false: the worker is still selecting its backend, possibly inside the webgpu
    // package's native adapter probe, and a terminate there aborts the whole engine process (a fatal
    // napi_throw seen in a test run); it is ended as soon as it reports its backend.
    const settle = (fn: () => void, terminate = true) => {
      if (settled) return;
      settled = true;
      ctx.signal.removeEventListener('abort', onAbort);
      if (terminate) void worker.terminate();
      fn();
    };
    // A worker still loading its modules and backend (seconds on a busy machine) reads no message:
    // cancelled then, the job ends at once and the worker once its backend is chosen; once started,
    // its job stops at its next check (and cleans up).
    const onAbort = () => {
      if (started) worker.postMessage({ type: 'cancel' } satisfies ToJobWorker);
      else settle(() => reject(new Error('cancelled before the job\'s worker had started')), false);
    };
    ctx.signal.addEventListener('abort', onAbort);
    if (ctx.signal.aborted) onAbort();
    worker.on('message', (m: FromJobWorker) => {
      // cancelled while it started: out of the backend probe now, so it can be ended safely
      if (settled) return m.type === 'progress' ? undefined : void worker.terminate();
      switch (m.type) {
        case 'backend': started = true; return undefined;
        case 'progress': return ctx.progress(m.fraction, m.message, m.etaSeconds);
        case 'done': return settle(() => resolve({ ok: true, result: new JsonText(m.resultJson) }));
        case 'error':
          if (m.backendFailed) return settle(() => resolve({ ok: false }));
          return settle(() => reject(new Error(m.message)));
        default: return undefined;
      }
    });
    worker.on('error', (e) => settle(() => (started ? reject(e) : resolve({ ok: false }))));
    worker.on('exit', (code) => settle(() => (started ? reject(new Error(`the ${input.kind} job's worker exited (code ${code}) before finishing`)) : resolve({ ok: false }))));
  });
}
