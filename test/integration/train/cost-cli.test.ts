// `lino cost --benchmark darcy|burgers|navier-stokes` at tiny size: the solver at two or three grids
// (the coarser ones' error against the finest solve, the finest marked as the reference) and tiny trained
// runs (Darcy: LiNO and FNO; Burgers: LiNO; Navier-Stokes: FNO, rolled out) at batch 1 and batched, their
// error against the same finest solve; cost.json / cost.csv; refusals.
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

async function trained(id: string, model: Record<string, unknown>, data: Record<string, unknown> = { kind: 'generate', benchmark: 'darcy', preset: 'tiny', samples: 6, train: 4, val: 2 }): Promise<string> {
  await tf.setBackend('cpu');
  const h = new RunStore(join(ws.path, 'runs')).create({ name: id, epochs: 2, batchSize: 2, optimizer: { lr: 5e-3 }, model, data }, id);
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
  const b = lino('cost', '--benchmark', 'airfoil');
  assert.equal(b.status, 2);
  assert.match(b.stderr, /--benchmark is 'airfoil', expected darcy, burgers, navier-stokes/);
  const s = lino('cost', '--benchmark', 'darcy', '--resolutions', '16,29', '--samples', '1');
  assert.equal(s.status, 1);
  assert.match(s.stderr, /resolution 16 is not a stride of 29/);
});

interface Row { kind: string; name: string; model?: string; resolution: number; batch: number; secondsPerSample: number; relL2: number | null }

/** The solver rows' grids and errors (the finest: the reference), the model rows' name:kind:batch, every model error finite. */
function checkRows(rep: { rows: Row[]; finest: number }, grids: number[], models: string[]): Row[] {
  const solver = rep.rows.filter((x) => x.kind === 'solver');
  assert.deepEqual(solver.map((x) => x.resolution), grids);
  assert.equal(rep.finest, grids[grids.length - 1]);
  for (const x of solver.slice(0, -1)) assert.ok(x.relL2! > 0 && x.relL2! < 1, `${x.resolution} against ${rep.finest}: ${x.relL2}`);
  assert.equal(solver[solver.length - 1]!.relL2, null, 'the finest solve is the reference');
  const m = rep.rows.filter((x) => x.kind === 'model');
  assert.deepEqual(m.map((x) => `${x.name}:${x.model}:${x.batch}`), models);
  for (const x of m) assert.ok(x.secondsPerSample > 0 && x.relL2! > 0 && Number.isFinite(x.relL2), JSON.stringify(x));
  // batch 1 and batched run the same model on the same inputs: the same error
  assert.ok(Math.abs(m[0]!.relL2! - m[1]!.relL2!) < 1e-5 * m[0]!.relL2!);
  return solver;
}

test('lino cost --benchmark burgers: solver on 64, 128 and 256 points, a LiNO run on 64 at batch 1 and 3', async () => {
  const run = await trained('cost-burgers', { width: 6, depth: 1 }, { kind: 'generate', benchmark: 'burgers', preset: 'tiny', samples: 4, train: 3, val: 1 });
  const out = join(ws.path, 'cost-burgers-out');
  const r = lino('cost', '--benchmark', 'burgers', '--resolutions', '64,128,256', '--samples', '3', '--run', run, '--checkpoint', 'last', '--out', out);
  assert.equal(r.status, 0, r.stderr + r.stdout);
  assert.match(r.stdout, /reference: the 256-point solve/);
  assert.match(r.stdout, /relL2: mean over samples of/);
  const rep = JSON.parse(readFileSync(join(out, 'cost.json'), 'utf8'));
  assert.equal(rep.benchmark, 'burgers');
  const solver = checkRows(rep, [64, 128, 256], ['cost-burgers:lino:1', 'cost-burgers:lino:3']);
  // the pseudo-spectral solver converges: the finer grid is nearer the reference
  assert.ok(solver[1]!.relL2! < solver[0]!.relL2!, `128 (${solver[1]!.relL2}) nearer than 64 (${solver[0]!.relL2})`);
  // a grid that is not a power of two, and a run of another benchmark, are refused naming them
  const s = lino('cost', '--benchmark', 'burgers', '--resolutions', '100,256', '--samples', '1');
  assert.equal(s.status, 1);
  assert.match(s.stderr, /resolution 100 for burgers: expected a power of two in 16\.\.8192/);
  const d = lino('cost', '--benchmark', 'darcy', '--resolutions', '29', '--samples', '1', '--run', run);
  assert.equal(d.status, 1);
  assert.match(d.stderr, /run cost-burgers was trained on 'burgers' data, the benchmark is darcy/);
});

test('lino cost --benchmark navier-stokes: solver at 16 and 32 from t = T_in, a 16x16 FNO run rolled out at batch 1 and 2', async () => {
  const run = await trained('cost-ns', { kind: 'fno', width: 4, depth: 1, modes: 4 }, { kind: 'generate', benchmark: 'navier-stokes', preset: 'tiny', samples: 4, frames: 6, tIn: 3, tOut: 3, train: 3, val: 1, resolution: 16 });
  const out = join(ws.path, 'cost-ns-out');
  const r = lino('cost', '--benchmark', 'navier-stokes', '--resolutions', '16,32', '--samples', '2', '--run', run, '--checkpoint', 'last', '--out', out);
  assert.equal(r.status, 0, r.stderr + r.stdout);
  assert.match(r.stdout, /reference: the 32x32 solve/);
  const rep = JSON.parse(readFileSync(join(out, 'cost.json'), 'utf8'));
  assert.equal(rep.benchmark, 'navier-stokes');
  assert.deepEqual(rep.window, { tIn: 3, tOut: 3 }, 'the run\'s window');
  assert.match(rep.relL2Definition, /T_out rolled-out frames/);
  checkRows(rep, [16, 32], ['cost-ns:fno:1', 'cost-ns:fno:2']);
  const csv = readFileSync(join(out, 'cost.csv'), 'utf8').trim().split('\r\n');
  assert.equal(csv.length, 1 + 4);
});
