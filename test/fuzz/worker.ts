// Runs fuzz cases on request and reports each start/finish to the parent, which enforces the
// per-case hang guard (a synchronous loop cannot be interrupted from inside its own thread).
// The worker stays alive between requests so the suite pays its start-up (tsx) once.
import { parentPort } from 'node:worker_threads';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCase } from './cases';

const tmp = mkdtempSync(join(tmpdir(), 'lino-fuzz-'));
process.on('exit', () => rmSync(tmp, { recursive: true, force: true }));
parentPort!.on('message', async (req: { format: string; seed: number; from: number; to: number } | { type: 'quit' }) => {
  if ('type' in req) { rmSync(tmp, { recursive: true, force: true }); process.exit(0); }
  const { format, seed, from, to } = req;
  for (let i = from; i < to; i++) {
    parentPort!.postMessage({ type: 'start', i });
    try {
      const r = await runCase(format, seed, i, tmp);
      parentPort!.postMessage({ type: 'done', i, outcome: r.outcome });
    } catch (err) {
      parentPort!.postMessage({ type: 'bad', i, message: (err as Error).message });
    }
  }
  parentPort!.postMessage({ type: 'finished' });
});
parentPort!.postMessage({ type: 'ready' });
