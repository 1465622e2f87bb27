// Drives fuzz workers: `count` mutations of one format's fixtures, a 2 s hang guard per case
// (the worker is terminated and restarted after the hung case), results tallied. Cases are
// deterministic, so a case that hits the guard is run once more in a fresh worker before it counts
// as a hang: on a loaded machine a stall (GC, starved CPU) is not a hang, a real loop repeats.
import { Worker } from 'node:worker_threads';

export interface FuzzReport { format: string; cases: number; ok: number; dataErrors: number; failures: string[]; seconds: number }

export const HANG_MS = 2000;

export async function fuzzFormat(format: string, count: number, seed = 1, hangMs = HANG_MS): Promise<FuzzReport> {
  const t0 = performance.now();
  const rep: FuzzReport = { format, cases: count, ok: 0, dataErrors: 0, failures: [], seconds: 0 };
  let next = 0;
  const retried = new Set<number>();
  while (next < count) {
    next = await new Promise<number>((resolve) => {
      const w = new Worker(new URL('./worker-entry.mjs', import.meta.url), { workerData: { format, seed, from: next, to: count } });
      let current = next;
      let timer: NodeJS.Timeout | null = null;
      let settled = false;
      const finish = (resumeAt: number) => {
        if (settled) return;
        settled = true;
        if (timer) clearTimeout(timer);
        void w.terminate();
        resolve(resumeAt);
      };
      const arm = () => {
        if (timer) clearTimeout(timer);
        timer = setTimeout(() => {
          if (!retried.has(current)) { retried.add(current); finish(current); return; }
          rep.failures.push(`${format} case ${current}: still running after ${hangMs} ms, twice (hang guard)`);
          finish(current + 1);
        }, hangMs);
      };
      w.on('message', (m: { type: string; i: number; outcome?: string; message?: string }) => {
        if (m.type === 'start') { current = m.i; arm(); }
        else if (m.type === 'done') { if (m.outcome === 'ok') rep.ok++; else rep.dataErrors++; if (timer) clearTimeout(timer); }
        else if (m.type === 'bad') { rep.failures.push(m.message ?? `case ${m.i}`); if (timer) clearTimeout(timer); }
        else if (m.type === 'finished') finish(count);
      });
      w.on('error', (e) => { rep.failures.push(`${format} case ${current}: worker died: ${e.message.split('\n')[0]}`); finish(current + 1); });
      w.on('exit', () => finish(current + 1));
    });
  }
  rep.seconds = (performance.now() - t0) / 1000;
  return rep;
}
