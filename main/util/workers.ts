// One way to start a worker thread. Every worker entry is named in worker-entries.json, the one
// table that scripts/build.mjs bundles from too. Run from the TypeScript sources, a worker registers tsx's loader
// in its own thread before importing its body (Node does not pass the parent's loader on); run
// from a bundle, it loads `<bundle>.js` from beside the running bundle, and a bundle that did not
// ship it gets null (the caller then works in its own thread, as before). A call that expects one
// reply goes through callWorker, with a deadline, a heap limit and a cancel signal.
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Worker, type Transferable } from 'node:worker_threads';
import ENTRIES from './worker-entries.json' with { type: 'json' };

/** Each worker: its TypeScript body (from the repository root) and its bundle's file name. */
export const WORKERS: Readonly<Record<keyof typeof ENTRIES, { source: string; bundle: string }>> = ENTRIES;
export type WorkerName = keyof typeof WORKERS;

const FROM_SOURCES = import.meta.url.endsWith('.ts');

/** Whether the worker `name` can start here (a bundle that did not ship its entry: no). */
export function hasWorker(name: WorkerName): boolean {
  if (FROM_SOURCES) return true;
  const url = new URL(`./${WORKERS[name].bundle}`, import.meta.url);
  return url.protocol !== 'file:' || existsSync(fileURLToPath(url));
}

/** Starts the worker `name` with `workerData`; null where a bundle did not ship its entry. */
export function spawnWorker(name: WorkerName, workerData: unknown, opts: { heapMb?: number; transferList?: Transferable[] } = {}): Worker | null {
  const resourceLimits = opts.heapMb ? { maxOldGenerationSizeMb: opts.heapMb } : undefined;
  if (FROM_SOURCES) {
    const body = new URL(`../../${WORKERS[name].source}`, import.meta.url).href;
    const tsx = import.meta.resolve('tsx/esm/api');
    const boot = `import(${JSON.stringify(tsx)}).then((m) => { m.register(); return import(${JSON.stringify(body)}); })`;
    return new Worker(boot, { eval: true, workerData, resourceLimits, transferList: opts.transferList });
  }
  if (!hasWorker(name)) return null;
  return new Worker(new URL(`./${WORKERS[name].bundle}`, import.meta.url), { workerData, resourceLimits, transferList: opts.transferList });
}

export interface CallOptions {
  deadlineMs: number;
  heapMb?: number;
  signal?: AbortSignal;
  /** The error when the deadline passes (it names the file or the work). */
  late(): Error;
  /** The error when the worker fails or exits without a reply. */
  failed(why: string, code?: string): Error;
}

/**
 * One request, one reply: the worker's first message, or the caller's error after the deadline, a
 * crash, an exit or a cancel; the worker is terminated in every case. Null where no entry shipped.
 */
export function callWorker<R>(name: WorkerName, workerData: unknown, o: CallOptions): Promise<R> | null {
  const worker = spawnWorker(name, workerData, { heapMb: o.heapMb });
  if (!worker) return null;
  return new Promise<R>((resolve, reject) => {
    let settled = false;
    const settle = (fn: () => void) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      o.signal?.removeEventListener('abort', onAbort);
      void worker.terminate();
      fn();
    };
    const timer = setTimeout(() => settle(() => reject(o.late())), o.deadlineMs);
    const onAbort = () => settle(() => reject(new Error('cancelled')));
    if (o.signal?.aborted) onAbort();
    o.signal?.addEventListener('abort', onAbort, { once: true });
    worker.on('message', (r: R) => settle(() => resolve(r)));
    worker.on('error', (e) => settle(() => reject(o.failed(e.message, (e as { code?: string }).code))));
    worker.on('exit', (code) => settle(() => reject(o.signal?.aborted ? new Error('cancelled') : o.failed(`the worker exited with code ${code} before answering`))));
  });
}
