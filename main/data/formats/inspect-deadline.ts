// A file listing that cannot hang its caller: inspectDataFile runs in a worker thread, and a file
// that takes longer than the deadline (a pathological HDF5 layout, a slow network mount) becomes
// a DataError naming it while the calling thread keeps answering (the engine's ping).
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import { DataError } from './errors';
import { inspectDataFile } from './index';
import type { InspectReply } from './inspect-worker';

/** How long a listing may take (ms); LINO_INSPECT_DEADLINE_MS overrides it (slow network mounts, tests). */
export const INSPECT_DEADLINE_MS = Number(process.env.LINO_INSPECT_DEADLINE_MS) > 0 ? Number(process.env.LINO_INSPECT_DEADLINE_MS) : 30_000;

let workerUrlOverride: URL | null = null;
/** Bundled builds point this at their compiled worker entry (the sources use ./inspect-worker.ts through tsx). */
export function setInspectWorkerUrl(url: URL | null): void {
  workerUrlOverride = url;
}

/** The worker entry, or null when a bundle did not ship `inspect-worker.js` beside itself. */
function workerUrl(): URL | null {
  if (workerUrlOverride) return workerUrlOverride;
  if (import.meta.url.endsWith('.ts')) return new URL('./inspect-worker-bootstrap.mjs', import.meta.url);
  const url = new URL('./inspect-worker.js', import.meta.url);
  return url.protocol === 'file:' && !existsSync(fileURLToPath(url)) ? null : url;
}

export type Listing = Awaited<ReturnType<typeof inspectDataFile>>;

/**
 * inspectDataFile(path) within `deadlineMs`. Without a worker entry (a bundle that did not ship
 * one) it lists in this thread, where the HDF5 walk's own time budget still bounds it.
 */
export function inspectWithDeadline(path: string, deadlineMs = INSPECT_DEADLINE_MS, signal?: AbortSignal): Promise<Listing> {
  const url = workerUrl();
  if (!url) return inspectDataFile(path);
  return new Promise<Listing>((resolve, reject) => {
    const worker = new Worker(url, { workerData: { path } });
    let settled = false;
    const settle = (fn: () => void) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
      void worker.terminate();
      fn();
    };
    const timer = setTimeout(() => settle(() => reject(new DataError(path, '', `listing the file took longer than ${deadlineMs / 1000} s and was stopped`, 'a file that can be listed in time'))), deadlineMs);
    const onAbort = () => settle(() => reject(new Error('cancelled')));
    signal?.addEventListener('abort', onAbort, { once: true });
    worker.on('message', (r: InspectReply) => settle(() => (r.ok ? resolve(r.listing) : reject(r.file !== undefined ? Object.assign(new DataError(r.file, r.field ?? '', ''), { message: r.message, expected: r.expected ?? '' }) : new Error(r.message)))));
    worker.on('error', (e) => settle(() => reject(new DataError(path, '', `listing failed: ${e.message}`))));
    worker.on('exit', (code) => settle(() => reject(new DataError(path, '', `listing stopped (worker exited with code ${code})`))));
  });
}
