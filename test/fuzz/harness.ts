// Drives a fuzz worker: `count` mutations of one format's fixtures, a 2 s hang guard per case
// (the worker is terminated and a fresh one continues after the hung case), results tallied.
// Cases are deterministic, so a case that hits the guard is run once more in a fresh worker
// before it counts as a hang: on a loaded machine a stall (GC, starved CPU) is not a hang, a real
// loop repeats. One worker is reused across calls (its tsx start-up costs ~1 s).
import { Worker } from 'node:worker_threads';

export interface FuzzReport { format: string; cases: number; ok: number; dataErrors: number; failures: string[]; seconds: number }

export const HANG_MS = 2000;

let shared: Promise<Worker> | null = null;

function getWorker(): Promise<Worker> {
  if (!shared) {
    shared = new Promise<Worker>((resolve, reject) => {
      const w = new Worker(new URL('./worker-entry.mjs', import.meta.url));
      w.unref();
      const onMsg = (m: { type: string }) => { if (m.type === 'ready') { w.off('message', onMsg); resolve(w); } };
      w.on('message', onMsg);
      w.once('error', reject);
    });
  }
  return shared;
}

function dropWorker(w: Worker): void {
  shared = null;
  void w.terminate();
}

export async function fuzzFormat(format: string, count: number, seed = 1, hangMs = HANG_MS): Promise<FuzzReport> {
  const t0 = performance.now();
  const rep: FuzzReport = { format, cases: count, ok: 0, dataErrors: 0, failures: [], seconds: 0 };
  let next = 0;
  const retried = new Set<number>();
  while (next < count) {
    const w = await getWorker();
    next = await new Promise<number>((resolve) => {
      let current = next;
      let timer: NodeJS.Timeout | null = null;
      let settled = false;
      const finish = (resumeAt: number, kill: boolean) => {
        if (settled) return;
        settled = true;
        if (timer) clearTimeout(timer);
        w.off('message', onMessage);
        w.off('error', onError);
        w.off('exit', onExit);
        if (kill) dropWorker(w);
        resolve(resumeAt);
      };
      const arm = () => {
        if (timer) clearTimeout(timer);
        timer = setTimeout(() => {
          if (!retried.has(current)) { retried.add(current); finish(current, true); return; }
          rep.failures.push(`${format} case ${current}: still running after ${hangMs} ms, twice (hang guard)`);
          finish(current + 1, true);
        }, hangMs);
      };
      const onMessage = (m: { type: string; i: number; outcome?: string; message?: string }) => {
        if (m.type === 'start') { current = m.i; arm(); }
        else if (m.type === 'done') { if (m.outcome === 'ok') rep.ok++; else rep.dataErrors++; if (timer) clearTimeout(timer); }
        else if (m.type === 'bad') { rep.failures.push(m.message ?? `case ${m.i}`); if (timer) clearTimeout(timer); }
        else if (m.type === 'finished') finish(count, false);
      };
      const onError = (e: Error) => { rep.failures.push(`${format} case ${current}: worker died: ${e.message.split('\n')[0]}`); finish(current + 1, true); };
      const onExit = () => { rep.failures.push(`${format} case ${current}: worker exited`); finish(current + 1, true); };
      w.on('message', onMessage);
      w.on('error', onError);
      w.on('exit', onExit);
      w.postMessage({ format, seed, from: next, to: count });
    });
  }
  // the same worker must still read the untouched fixtures (an aborted HDF5 instance would not)
  const w = await getWorker();
  const pristine = await new Promise<{ ok: boolean; message?: string }>((resolve) => {
    const onMessage = (m: { type: string; ok: boolean; message?: string }) => { if (m.type === 'pristine') { w.off('message', onMessage); resolve(m); } };
    w.on('message', onMessage);
    w.postMessage({ type: 'pristine', format });
  });
  if (!pristine.ok) rep.failures.push(`${format}: the untouched fixtures no longer load after fuzzing: ${pristine.message}`);
  rep.seconds = (performance.now() - t0) / 1000;
  return rep;
}

/** Lets the process exit (the shared worker is unref'd, this also stops it). */
export async function stopFuzzWorker(): Promise<void> {
  if (!shared) return;
  const w = await shared;
  dropWorker(w);
}
