// The engine thread's side of the Playground's worker (playground-worker.ts): playground.predict and
// playground.draw are posted to one long-lived worker and answered from it, so the engine thread keeps
// answering other calls during a 512 x 512 forward pass. The worker starts on the first call and
// again after it exits (a crash rejects only the calls it held). Where no worker was built (a bundle
// without it), the calls run in this thread as before.
import type { Worker } from 'node:worker_threads';
import { hasWorker, spawnWorker } from '../util/workers';
import { ApiError } from '../api/api-error';
import type { FromPlaygroundWorker } from './playground-worker';
import { LANE_CALLS, type PlaygroundLaneMethod } from './playground-lane-calls';
import { JsonText } from './json-text';

/** Handlers that take their params as JsonText (TEXT_PARAM_METHODS' calls answered here). */
export const LANE_TEXT_HANDLERS: ReadonlySet<string> = new Set(['playground.predict', 'playground.draw']);

interface Pending { resolve: (v: unknown) => void; reject: (e: unknown) => void }

let worker: { w: Worker; ready: Promise<void>; pending: Map<number, Pending> } | null = null;
let next = 0;

function start(): NonNullable<typeof worker> {
  const w = spawnWorker('playground', undefined)!;
  w.unref();
  const pending = new Map<number, Pending>();
  const ready = new Promise<void>((resolve, reject) => {
    w.once('message', () => resolve());
    w.once('error', reject);
  });
  const entry = { w, ready, pending };
  w.on('message', (m: FromPlaygroundWorker | { ready: true }) => {
    if (!('n' in m)) return;
    const p = pending.get(m.n);
    if (!p) return;
    pending.delete(m.n);
    if ('error' in m) p.reject(m.code ? new ApiError(m.error, m.code as ApiError['code'], (m.details ?? {}) as ApiError['details']) : new Error(m.error));
    else p.resolve(new JsonText(m.resultJson));
  });
  const fail = (why: string) => {
    if (worker === entry) worker = null;
    for (const p of pending.values()) p.reject(new Error(`the Playground's worker ${why}`));
    pending.clear();
  };
  w.on('error', (e) => fail(`failed: ${e.message}`));
  w.on('exit', (code) => fail(`exited (code ${code})`));
  return entry;
}

/** playground.predict, .draw or .trust, answered by the Playground's worker (as JSON text for the host, or the object in this thread). */
export async function playgroundLaneCall(method: PlaygroundLaneMethod, params: unknown): Promise<unknown> {
  if (!hasWorker('playground')) {
    const p = params instanceof JsonText ? (JSON.parse(params.json) as never) : (params as never);
    return LANE_CALLS[method](p);
  }
  worker ??= start();
  const { w, ready, pending } = worker;
  await ready;
  const n = ++next;
  return new Promise((resolve, reject) => {
    pending.set(n, { resolve, reject });
    w.postMessage(params instanceof JsonText ? { n, method, paramsJson: params.json } : { n, method, params });
  });
}

/** Ends the worker (the engine's shutdown, tests). */
export async function stopPlaygroundLane(): Promise<void> {
  const w = worker?.w;
  worker = null;
  await w?.terminate();
}
