// A checkpoint decoded where a deadline can stop it: readReleaseCheckpoint runs in a worker thread
// with a heap limit, so a file built to take long or grow large (pickle tricks the decoding limits
// did not foresee) ends as an error naming the file while the engine keeps answering (engine.ping).
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import { readReleaseCheckpoint, type ReleaseCheckpoint } from './release-checkpoint';
import type { CheckpointReply } from './release-checkpoint-worker';

/** How long decoding a checkpoint may take (ms); LINO_CHECKPOINT_DEADLINE_MS overrides it (slow disks, tests). */
export const CHECKPOINT_DEADLINE_MS = Number(process.env.LINO_CHECKPOINT_DEADLINE_MS) > 0 ? Number(process.env.LINO_CHECKPOINT_DEADLINE_MS) : 60_000;
/** The worker's JavaScript heap (tensor data live outside it, in array buffers). */
const WORKER_HEAP_MB = 2048;

let workerUrlOverride: URL | null = null;
/** Bundled builds point this at their compiled worker entry (the sources use the .ts body through tsx). */
export function setCheckpointWorkerUrl(url: URL | null): void {
  workerUrlOverride = url;
}

function workerUrl(): URL | null {
  if (workerUrlOverride) return workerUrlOverride;
  if (import.meta.url.endsWith('.ts')) return new URL('./release-checkpoint-worker-bootstrap.mjs', import.meta.url);
  const url = new URL('./checkpoint-worker.js', import.meta.url);
  return url.protocol === 'file:' && !existsSync(fileURLToPath(url)) ? null : url;
}

/**
 * readReleaseCheckpoint(path) within `deadlineMs`, off the calling thread. Without a worker entry
 * (a bundle that did not ship one) it decodes in this thread, where the decoding limits still bound it.
 */
export function readReleaseCheckpointWithDeadline(path: string, deadlineMs = CHECKPOINT_DEADLINE_MS, signal?: AbortSignal): Promise<ReleaseCheckpoint> {
  const url = workerUrl();
  if (!url) return Promise.resolve().then(() => readReleaseCheckpoint(path));
  return new Promise<ReleaseCheckpoint>((resolve, reject) => {
    const worker = new Worker(url, { workerData: { path }, resourceLimits: { maxOldGenerationSizeMb: WORKER_HEAP_MB } });
    let settled = false;
    const settle = (fn: () => void) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
      void worker.terminate();
      fn();
    };
    const timer = setTimeout(() => settle(() => reject(new Error(`${path}: reading the checkpoint took longer than ${deadlineMs / 1000} s and was stopped (expected a checkpoint that decodes in time)`))), deadlineMs);
    const onAbort = () => settle(() => reject(new Error('cancelled')));
    signal?.addEventListener('abort', onAbort, { once: true });
    worker.on('message', (r: CheckpointReply) => settle(() => (r.ok ? resolve(r.checkpoint) : reject(new Error(r.message)))));
    worker.on('error', (e) => settle(() => reject(new Error(`${path}: reading the checkpoint failed: ${e.message}${(e as { code?: string }).code === 'ERR_WORKER_OUT_OF_MEMORY' ? ` (more than ${WORKER_HEAP_MB} MB of decoded values)` : ''}`))));
    worker.on('exit', (code) => settle(() => reject(new Error(`${path}: reading the checkpoint stopped (worker exited with code ${code})`))));
  });
}
