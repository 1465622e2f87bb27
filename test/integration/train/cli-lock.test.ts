// Two `lino train --resume` processes on one run: started together, one trains and the
// other refuses (non-zero exit, naming the run and the holder's pid); metrics.jsonl stays whole
// and in order; SIGTERM stops the trainer and releases the lock; a stale lock (its process gone)
// is taken over with a message on stderr and in events.log.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { RunStore } from '../../../main/runs/run-store';
import { tempDir } from '../../helpers/env';
import { waitFor } from '../../helpers/wait';

const root = fileURLToPath(new URL('../../../', import.meta.url));
const ws = tempDir('lino-cli-lock-');
after(() => ws.cleanup());

interface Proc { pid: number; code: Promise<number | null>; out: () => string; err: () => string; kill: (s: NodeJS.Signals) => void }
function lino(...args: string[]): Proc {
  const child = spawn(process.execPath, [join(root, 'bin/lino.mjs'), ...args], { cwd: root, env: { ...process.env, LINO_BACKEND: 'cpu' } });
  let out = '';
  let err = '';
  child.stdout.on('data', (b: Buffer) => (out += b.toString()));
  child.stderr.on('data', (b: Buffer) => (err += b.toString()));
  const timer = setTimeout(() => child.kill('SIGKILL'), 300_000);
  const code = new Promise<number | null>((resolve) => child.on('exit', (c) => {
    clearTimeout(timer);
    resolve(c);
  }));
  return { pid: child.pid!, code, out: () => out, err: () => err, kill: (s) => child.kill(s) };
}

/** Steps 1..n once each, epochs 1..k once each, each epoch after its steps. */
function assertOrdered(path: string): { steps: number; epochs: number } {
  const recs = readFileSync(path, 'utf8').trim().split('\n').map((l) => JSON.parse(l) as { type: string; step?: number; epoch: number });
  let step = 0;
  let epoch = 0;
  for (const r of recs) {
    if (r.type === 'step') assert.equal(r.step, ++step, `step records in order: ${JSON.stringify(r)} after step ${step - 1}`);
    else assert.equal(r.epoch, ++epoch, `epoch records in order: ${JSON.stringify(r)} after epoch ${epoch - 1}`);
  }
  return { steps: step, epochs: epoch };
}

test('two lino train --resume on one run: one trains, the other refuses; SIGTERM releases; a stale lock is taken over', { timeout: 600_000 }, async () => {
  const store = new RunStore(join(ws.path, 'runs'));
  // 4 steps an epoch for many epochs: long enough to still be training when the second one asks.
  const run = store.create({ name: 'lock', model: { width: 6, depth: 1 }, data: { kind: 'synthetic', grid: [8, 8], train: 8, val: 2 }, epochs: 3000, batchSize: 2 }, 'r1');
  const lockPath = join(run.dir, 'train.lock');
  const p1 = lino('train', '--resume', 'r1', '--workspace', ws.path, '--quiet');
  const p2 = lino('train', '--resume', 'r1', '--workspace', ws.path, '--quiet');
  // Whichever loses the race refuses; the other holds the lock and trains.
  const first = await Promise.race([p1.code.then((c) => ({ p: p1, other: p2, c })), p2.code.then((c) => ({ p: p2, other: p1, c }))]);
  assert.equal(first.c, 1, `the refused one exits non-zero\n${first.p.out()}\n${first.p.err()}`);
  const trainer = first.other;
  assert.match(first.p.err(), new RegExp(`lino train: run 'r1' is being trained by another writer: held by lino train, process ${trainer.pid}`));
  await waitFor(() => existsSync(run.metricsPath) && run.readMetrics().records.some((r) => r.type === 'epoch'), 120_000, 'an epoch of the trainer');

  // And one asked later, while it trains, refuses the same way.
  const p3 = lino('train', '--resume', 'r1', '--workspace', ws.path, '--quiet');
  assert.equal(await p3.code, 1);
  assert.match(p3.err(), new RegExp(`process ${trainer.pid}`));

  trainer.kill('SIGTERM');
  assert.equal(await trainer.code, 143, trainer.err()); // 128 + SIGTERM, after stopping cleanly
  assert.equal(run.readStatus().state, 'stopped');
  assert.equal(existsSync(lockPath), false, 'SIGTERM released the lock');
  const a = assertOrdered(run.metricsPath);
  assert.ok(a.epochs >= 1);

  // A lock left by a process that no longer exists (pid above Linux's pid_max) is taken over.
  writeFileSync(lockPath, JSON.stringify({ pid: 2 ** 22 + 7, host: hostname(), startedAt: '2026-01-01T00:00:00.000Z', owner: 'lino train', token: 'gone' }));
  const p4 = lino('train', '--resume', 'r1', '--workspace', ws.path, '--quiet');
  await waitFor(() => /took over/.test(p4.err()) || null, 120_000, 'the takeover message');
  assert.match(p4.err(), new RegExp(`took over the run lock of run 'r1': its process ${2 ** 22 + 7} \\(lino train, since 2026-01-01T00:00:00.000Z\\) is gone`));
  await waitFor(() => run.readMetrics().records.filter((r) => r.type === 'epoch').length > a.epochs, 120_000, 'an epoch after the takeover');
  p4.kill('SIGINT');
  assert.equal(await p4.code, 130, p4.err()); // 128 + SIGINT, after stopping cleanly
  assert.match(readFileSync(run.eventsPath, 'utf8'), /took over the run lock of run 'r1'/);
  assert.equal(existsSync(lockPath), false, 'SIGINT released the lock');
  const b = assertOrdered(run.metricsPath);
  assert.ok(b.epochs > a.epochs, `resumed: ${a.epochs} -> ${b.epochs} epochs`);
});
