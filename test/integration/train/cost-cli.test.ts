// `lino cost --benchmark darcy` at tiny size: the solver at two grids (the coarse one's error against the
// finest solve, the finest marked as the reference) and two tiny trained runs (LiNO, FNO) at batch 1 and
// batched, their error against the same finest solve; cost.json / cost.csv; refusals.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { tempDir } from '../../helpers/env';
import { RunStore } from '../../../main/runs/run-store';
import { trainRun } from '../../../main/train/runner';
import * as tf from '../../../main/ops/tf';

const root = fileURLToPath(new URL('../../../', import.meta.url));
const ws = tempDir('lino-cost-');
after(() => ws.cleanup());
const lino = (...args: string[]) => spawnSync(process.execPath, [join(root, 'bin/lino.mjs'), ...args], { cwd: root, encoding: 'utf8', env: { ...process.env, LINO_BACKEND: 'cpu' }, timeout: 300_000 });

async function trained(id: string, model: Record<string, unknown>): Promise<string> {
  await tf.setBackend('cpu');
  const h = new RunStore(join(ws.path, 'runs')).create({ name: id, epochs: 2, batchSize: 2, optimizer: { lr: 5e-3 }, model,
    data: { kind: 'generate', benchmark: 'darcy', preset: 'tiny', samples: 6, train: 4, val: 2 } }, id);
  const r = await trainRun(h, { workspace: ws.path });
  assert.equal(r.state, 'done', r.reason);
  return h.dir;
}

test('lino cost --benchmark darcy: solver at 15 and 29, a LiNO and an FNO run at batch 1 and 3', async () => {
  const lino1 = await trained('cost-lino', { width: 6, depth: 1 });
  const fno = await trained('cost-fno', { kind: 'fno', width: 6, depth: 1, modes: 4 });
  const out = join(ws.path, 'cost-out');
  const r = lino('cost', '--benchmark', 'darcy', '--resolutions', '15,29', '--samples', '3', '--run', lino1, '--run', fno, '--checkpoint', 'last', '--out', out);
  assert.equal(r.status, 0, r.stderr + r.stdout);
  assert.match(r.stdout, /reference: the 29x29 solve/);
  const rep = JSON.parse(readFileSync(join(out, 'cost.json'), 'utf8'));
  assert.equal(rep.finest, 29);
  const solver = rep.rows.filter((x: { kind: string }) => x.kind === 'solver');
  assert.deepEqual(solver.map((x: { resolution: number }) => x.resolution), [15, 29]);
  assert.ok(solver[0].relL2 > 0 && solver[0].relL2 < 1, `15x15 against 29x29: ${solver[0].relL2}`);
  assert.equal(solver[1].relL2, null, 'the finest solve is the reference');
  const models = rep.rows.filter((x: { kind: string }) => x.kind === 'model');
  assert.deepEqual(models.map((x: { name: string; batch: number; model: string }) => `${x.name}:${x.model}:${x.batch}`), ['cost-lino:lino:1', 'cost-lino:lino:3', 'cost-fno:fno:1', 'cost-fno:fno:3']);
  for (const m of models) assert.ok(m.secondsPerSample > 0 && m.relL2 > 0 && Number.isFinite(m.relL2), JSON.stringify(m));
  // batch 1 and batched run the same model on the same inputs: the same error
  assert.ok(Math.abs(models[0].relL2 - models[1].relL2) < 1e-5 * models[0].relL2);
  const csv = readFileSync(join(out, 'cost.csv'), 'utf8').trim().split('\r\n');
  assert.equal(csv[0], 'kind,name,model,resolution,batch,secondsPerSample,relL2');
  assert.equal(csv.length, 1 + 6);
  // refusals: another benchmark (usage, 2), a grid that does not stride the finest (1, naming both)
  const b = lino('cost', '--benchmark', 'burgers');
  assert.equal(b.status, 2);
  assert.match(b.stderr, /--benchmark is 'burgers', expected darcy/);
  const s = lino('cost', '--benchmark', 'darcy', '--resolutions', '16,29', '--samples', '1');
  assert.equal(s.status, 1);
  assert.match(s.stderr, /resolution 16 is not a stride of 29/);
});
