// Runs fuzz cases on request and reports each start/finish to the parent, which enforces the
// per-case hang guard (a synchronous loop cannot be interrupted from inside its own thread).
// The worker stays alive between requests so the suite pays its start-up (tsx) once.
import { parentPort } from 'node:worker_threads';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readPristine, runCase } from './cases';
import { h5lib } from '../../main/data/formats/h5';

const tmp = mkdtempSync(join(tmpdir(), 'lino-fuzz-'));
process.on('exit', () => rmSync(tmp, { recursive: true, force: true }));
parentPort!.on('message', async (req: { format: string; seed: number; from: number; to: number } | { type: 'pristine'; format: string }) => {
  if ('type' in req) {
    try { await readPristine(req.format, tmp); parentPort!.postMessage({ type: 'pristine', ok: true }); }
    catch (err) { parentPort!.postMessage({ type: 'pristine', ok: false, message: (err as Error).message.split('\n')[0] }); }
    return;
  }
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
// HDF5's library loads on first use (seconds through tsx): load it before the first case's hang
// guard starts, as part of the worker's start-up.
await h5lib();
parentPort!.postMessage({ type: 'ready' });
