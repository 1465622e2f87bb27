// `lino eval --at N --source solved|resampled` end to end on a tiny Darcy run: the data at the other
// grid solved there by the generator (the JSON says so) or resampled (the text says so), and the
// flags refused by name when wrong.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { tempDir } from '../../helpers/env';
import { RunStore } from '../../../main/runs/run-store';
import { trainRun } from '../../../main/train/runner';
import * as tf from '../../../main/ops/tf';
import type { EvaluationResult } from '../../../main/api/contract';

const root = fileURLToPath(new URL('../../../', import.meta.url));
const ws = tempDir('lino-eval-transfer-');
after(() => ws.cleanup());
const lino = (...args: string[]) => spawnSync(process.execPath, [join(root, 'bin/lino.mjs'), ...args], { cwd: root, encoding: 'utf8', env: { ...process.env, LINO_BACKEND: 'cpu' }, timeout: 300_000 });

test('lino eval --at 9 --source solved|resampled on a tiny Darcy run; bad flags refused', async () => {
  await tf.setBackend('cpu');
  const h = new RunStore(join(ws.path, 'runs')).create({ name: 'transfer-cli', epochs: 1, batchSize: 2, model: { width: 4, depth: 1 }, data: { kind: 'generate', benchmark: 'darcy', preset: 'tiny', samples: 6, generateResolution: 13, train: 4, val: 2 } }, 'transfer-cli');
  assert.equal((await trainRun(h, { workspace: ws.path })).state, 'done');
  const solved = lino('eval', '--run', h.dir, '--checkpoint', 'last', '--at', '9', '--source', 'solved', '--json');
  assert.equal(solved.status, 0, solved.stderr + solved.stdout);
  const ev = JSON.parse(solved.stdout.trim().split('\n').pop()!) as EvaluationResult;
  assert.deepEqual(ev.resolutions.map((r) => r.grid), [[13, 13], [9, 9]]);
  assert.equal(ev.resolutions[1]!.source, 'solved');
  assert.match(ev.resolutions[1]!.origin!, /^solved at s = 9 by the generator \(darcy 'tiny', generator seed 0; 2 validation samples, the same sample indices as at s = 13\)$/);
  const resampled = lino('eval', '--run', h.dir, '--checkpoint', 'last', '--at', '9', '--source', 'resampled');
  assert.equal(resampled.status, 0, resampled.stderr + resampled.stdout);
  assert.match(resampled.stdout, /\n9x9 {2}n=2 .*\n {2}data: resampled from s = 13 \(the generated grid, interpolated\)\n/);
  const bad = lino('eval', '--run', h.dir, '--at', '9', '--source', 'interpolated');
  assert.notEqual(bad.status, 0);
  assert.match(bad.stderr, /--source is 'interpolated', expected solved \(by the generator at each grid\) or resampled/);
  const alone = lino('eval', '--run', h.dir, '--source', 'solved');
  assert.notEqual(alone.status, 0);
  assert.match(alone.stderr, /--source chooses how the data at other grids are made: give them with --at N/);
});
