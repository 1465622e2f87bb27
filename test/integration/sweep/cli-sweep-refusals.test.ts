// `lino sweep` refusals end to end (hardening III).
// Repro 2: two `lino sweep` processes on one sweep id. The second is refused at once (exit 1)
// naming the first by its pid, before it writes anything; the first, stopped with SIGTERM,
// records its trial with the epochs its run has.
// Repro 6: a trial configuration lino train would refuse (a backend "bogus") is refused before the
// sweep is made.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { tempDir } from '../../helpers/env';

const root = fileURLToPath(new URL('../../../', import.meta.url));
const bin = join(root, 'bin/lino.mjs');
const ws = tempDir('lino-sweep-lock-cli-');
after(() => ws.cleanup());
const env = { ...process.env, LINO_BACKEND: 'cpu' };

test('a second `lino sweep` on the same sweep exits 1 naming the first; the first keeps a truthful state', { timeout: 120_000 }, async () => {
  const file = join(ws.path, 'sweep.json');
  writeFileSync(file, JSON.stringify({ name: 'twice', base: { data: { kind: 'synthetic', grid: [16], train: 8, val: 2 }, model: { width: 4, depth: 1 }, batchSize: 4, epochs: 100000 }, axes: [{ path: 'model.width', values: [4] }] }));
  const wsDir = join(ws.path, 'ws');
  const args = [bin, 'sweep', '--config', file, '--workspace', wsDir, '--json'];
  const first = spawn(process.execPath, args, { cwd: root, env });
  let out = '', err = '';
  first.stdout.on('data', (d: Buffer) => (out += d.toString()));
  const exited = new Promise<number | null>((resolve) => first.on('exit', (code) => resolve(code)));
  await new Promise<void>((resolve, reject) => {
    first.stderr.on('data', (d: Buffer) => {
      err += d.toString();
      if (err.includes('epoch 1:')) resolve();
    });
    first.on('exit', () => reject(new Error(`the first sweep ended before its trial started: ${err}`)));
  });
  const id = JSON.parse(out.split('\n')[0]!).id as string;
  const statePath = join(wsDir, 'sweeps', id, 'state.json');
  const second = spawnSync(process.execPath, args, { cwd: root, env, encoding: 'utf8', timeout: 60_000 });
  assert.equal(second.status, 1, second.stderr);
  assert.match(second.stderr, new RegExp(`sweep '${id}' is being run by another process: held by lino sweep, process ${first.pid}`));
  assert.equal(second.stdout, '', 'nothing emitted');
  first.kill('SIGTERM');
  assert.equal(await exited, 143, err);
  const state = JSON.parse(readFileSync(statePath, 'utf8'));
  assert.equal(state.status, 'stopped');
  const t = state.trials[0];
  const epochs = readFileSync(join(wsDir, 'runs', t.runId, 'metrics.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l)).filter((r) => r.type === 'epoch');
  assert.ok(epochs.length >= 1);
  assert.deepEqual([t.state, t.epochs], ['running', epochs.length], 'resumable, with the epochs its run recorded');
});

test('a backend axis value "bogus" exits 1 naming the file, the configuration and the field; no sweep is made', () => {
  const file = join(ws.path, 'bogus.json');
  writeFileSync(file, JSON.stringify({ name: 'bogus', base: { data: { kind: 'synthetic', grid: [16], train: 8, val: 2 }, model: { width: 4, depth: 1 }, epochs: 1 }, axes: [{ path: 'backend', values: ['cpu', 'bogus'] }] }));
  const wsDir = join(ws.path, 'ws-bogus');
  const r = spawnSync(process.execPath, [bin, 'sweep', '--config', file, '--workspace', wsDir], { cwd: root, env, encoding: 'utf8', timeout: 60_000 });
  assert.equal(r.status, 1, r.stderr);
  assert.match(r.stderr, /bogus\.json: configuration c1 \{"backend":"bogus"\}: field 'backend': expected one of .*, got "bogus"/);
  assert.equal(existsSync(join(wsDir, 'sweeps')), false, 'no sweep made');
});
