// Runs fuzz cases for one format and reports each start/finish to the parent, which enforces
// the per-case hang guard (a synchronous loop cannot be interrupted from inside its own thread).
import { parentPort, workerData } from 'node:worker_threads';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCase } from './cases';

const { format, seed, from, to } = workerData as { format: string; seed: number; from: number; to: number };
const tmp = mkdtempSync(join(tmpdir(), `lino-fuzz-${format}-`));
try {
  for (let i = from; i < to; i++) {
    parentPort!.postMessage({ type: 'start', i });
    try {
      const r = await runCase(format, seed, i, tmp);
      parentPort!.postMessage({ type: 'done', i, outcome: r.outcome });
    } catch (err) {
      parentPort!.postMessage({ type: 'bad', i, message: (err as Error).message });
    }
  }
} finally {
  rmSync(tmp, { recursive: true, force: true });
}
parentPort!.postMessage({ type: 'finished' });
