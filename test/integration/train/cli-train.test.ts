// `lino train` and `lino eval` as a user runs them: a tiny generated Darcy run (LiNO, and FNO
// through the model registry; DeepONet on tiny Burgers) trains with decreasing loss and prints its final metrics; eval prints both conventions, best/median/worst
// and a second resolution; a bad config is refused naming the field.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { writeFileSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { tempDir } from '../../helpers/env';

const root = fileURLToPath(new URL('../../../', import.meta.url));
const ws = tempDir('lino-cli-train-');
after(() => ws.cleanup());

const lino = (...args: string[]) => spawnSync(process.execPath, [join(root, 'bin/lino.mjs'), ...args], { cwd: root, encoding: 'utf8', env: { ...process.env, LINO_BACKEND: 'cpu' }, timeout: 300_000 });

test('lino train: tiny generated Darcy run from a config file, loss decreases, final metrics printed', () => {
  const cfg = join(ws.path, 'run.json');
  writeFileSync(cfg, JSON.stringify({
    name: 'cli darcy',
    model: { width: 8, depth: 1 },
    data: { kind: 'generate', benchmark: 'darcy', preset: 'tiny', samples: 8, train: 6, val: 2 },
    epochs: 4,
    batchSize: 2,
    optimizer: { lr: 5e-3 },
  }));
  const r = lino('train', '--config', cfg, '--workspace', ws.path, '--id', 'darcy-cli');
  assert.equal(r.status, 0, r.stderr + r.stdout);
  const losses = [...r.stdout.matchAll(/epoch \d+\/4 {2}train loss ([0-9.e+-]+)/g)].map((m) => Number(m[1]));
  assert.equal(losses.length, 4, r.stdout);
  assert.ok(losses[3]! < losses[0]!, `train loss ${losses.join(' -> ')}`);
  assert.match(r.stdout, /run darcy-cli: done after 4 epochs, 12 steps/);
  assert.match(r.stdout, /final {3}train loss .* val relL2 .* \(normalized, paper\) .* \(decoded, FNO\)/);
  const metrics = readFileSync(join(ws.path, 'runs/darcy-cli/metrics.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l));
  assert.equal(metrics.filter((m) => m.type === 'step').length, 12);

  const e = lino('eval', '--run', join(ws.path, 'runs/darcy-cli'), '--resolutions', '21');
  assert.equal(e.status, 0, e.stderr + e.stdout);
  assert.match(e.stdout, /29x29 {2}n=2 {2}relL2 [0-9.e+-]+ \(normalized, paper\) {2}[0-9.e+-]+ \(decoded, FNO\)/);
  assert.match(e.stdout, /21x21 {2}n=2/);
  assert.match(e.stdout, /best sample \d+ .* median \d+ .* worst \d+/);
});

test('lino train + eval + info: a tiny generated Darcy run of FNO (model.kind fno), loss decreases, weights under FNO names', () => {
  const cfg = join(ws.path, 'fno.json');
  writeFileSync(cfg, JSON.stringify({
    name: 'cli darcy fno',
    model: { kind: 'fno', width: 8, modes: 4 },
    data: { kind: 'generate', benchmark: 'darcy', preset: 'tiny', samples: 8, train: 6, val: 2 },
    epochs: 4,
    batchSize: 2,
    optimizer: { lr: 5e-3 },
  }));
  const r = lino('train', '--config', cfg, '--workspace', ws.path, '--id', 'darcy-fno');
  assert.equal(r.status, 0, r.stderr + r.stdout);
  const losses = [...r.stdout.matchAll(/epoch \d+\/4 {2}train loss ([0-9.e+-]+)/g)].map((m) => Number(m[1]));
  assert.equal(losses.length, 4, r.stdout);
  assert.ok(losses[3]! < losses[0]!, `train loss ${losses.join(' -> ')}`);
  assert.match(r.stdout, /run darcy-fno: done after 4 epochs, 12 steps/);
  // the resolution transfer FNO is known for: evaluated at 21x21 as well
  const e = lino('eval', '--run', join(ws.path, 'runs/darcy-fno'), '--resolutions', '21');
  assert.equal(e.status, 0, e.stderr + e.stdout);
  assert.match(e.stdout, /21x21 {2}n=2 {2}relL2 [0-9.e+-]+/);
  const i = lino('info', '--weights', join(ws.path, 'runs/darcy-fno/checkpoints/best/weights.safetensors'), '--json');
  assert.equal(i.status, 0, i.stderr + i.stdout);
  const info = JSON.parse(i.stdout);
  assert.equal(info.kind, 'fno');
  assert.deepEqual([info.config.width, info.config.modes, info.config.layers, info.config.dims], [8, 4, 4, 2]);
  assert.ok(info.tensors.some((t: { key: string; shape: number[] }) => t.key === 'conv3.weights2' && t.shape.join(',') === '8,8,4,4,2'));
});

test('lino train + eval + info: a tiny generated Burgers run of DeepONet (model.kind deeponet), loss decreases; another resolution is refused naming the grid', () => {
  const cfg = join(ws.path, 'deeponet.json');
  writeFileSync(cfg, JSON.stringify({
    name: 'cli burgers deeponet',
    model: { kind: 'deeponet', width: 16, depth: 3, basis: 8 },
    data: { kind: 'generate', benchmark: 'burgers', preset: 'tiny', samples: 8, train: 6, val: 2 },
    epochs: 4,
    batchSize: 2,
    optimizer: { lr: 5e-3 },
  }));
  const r = lino('train', '--config', cfg, '--workspace', ws.path, '--id', 'burgers-deeponet');
  assert.equal(r.status, 0, r.stderr + r.stdout);
  const losses = [...r.stdout.matchAll(/epoch \d+\/4 {2}train loss ([0-9.e+-]+)/g)].map((m) => Number(m[1]));
  assert.equal(losses.length, 4, r.stdout);
  assert.ok(losses[3]! < losses[0]!, `train loss ${losses.join(' -> ')}`);
  assert.match(r.stdout, /run burgers-deeponet: done after 4 epochs, 12 steps/);
  const e = lino('eval', '--run', join(ws.path, 'runs/burgers-deeponet'));
  assert.equal(e.status, 0, e.stderr + e.stdout);
  assert.match(e.stdout, /relL2 [0-9.e+-]+/);
  const bad = lino('eval', '--run', join(ws.path, 'runs/burgers-deeponet'), '--resolutions', '32');
  assert.notEqual(bad.status, 0, bad.stdout);
  assert.match(bad.stderr + bad.stdout, /field 'grid'.*does not transfer to another resolution/);
  const i = lino('info', '--weights', join(ws.path, 'runs/burgers-deeponet/checkpoints/best/weights.safetensors'), '--json');
  assert.equal(i.status, 0, i.stderr + i.stdout);
  const info = JSON.parse(i.stdout);
  assert.equal(info.kind, 'deeponet');
  assert.deepEqual([info.config.width, info.config.layers, info.config.basis, info.config.dims], [16, 3, 8, 1]);
  assert.ok(info.tensors.some((t: { key: string; shape: number[] }) => t.key === 'trunk.layers.2.weight' && t.shape.join(',') === '8,16'));
});

test('lino train + eval: tiny generated Navier-Stokes rollout, loss decreases, per-step curve printed', () => {
  const cfg = join(ws.path, 'ns.json');
  writeFileSync(cfg, JSON.stringify({
    name: 'cli ns',
    model: { width: 8, depth: 1 },
    data: { kind: 'generate', benchmark: 'navier-stokes', preset: 'tiny', samples: 4, frames: 6, train: 3, val: 1, tIn: 3, tOut: 3, resolution: 16 },
    epochs: 3,
    batchSize: 1,
    optimizer: { lr: 5e-3 },
  }));
  const r = lino('train', '--config', cfg, '--workspace', ws.path, '--id', 'ns-cli');
  assert.equal(r.status, 0, r.stderr + r.stdout);
  const losses = [...r.stdout.matchAll(/epoch \d+\/3 {2}train loss ([0-9.e+-]+)/g)].map((m) => Number(m[1]));
  assert.ok(losses.length === 3 && losses[2]! < losses[0]!, `train loss ${losses.join(' -> ')}`);
  assert.match(r.stdout, /per-step val relL2 \(decoded\): (\S+±\S+\s+){2}\S+±\S+/);
  const e = lino('eval', '--run', join(ws.path, 'runs/ns-cli'), '--checkpoint', 'last', '--steps', '2');
  assert.equal(e.status, 0, e.stderr + e.stdout);
  assert.match(e.stdout, /step {3}1 .*\n.*step {3}2 /);
  assert.doesNotMatch(e.stdout, /step {3}3 /);
});

test('lino train refuses a bad configuration naming the field', () => {
  const cfg = join(ws.path, 'bad.json');
  writeFileSync(cfg, JSON.stringify({ data: { kind: 'synthetic', grid: [8, 8], train: 4, val: 2 }, batchSize: 0 }));
  const r = lino('train', '--config', cfg, '--workspace', ws.path);
  assert.equal(r.status, 1);
  assert.match(r.stderr, /bad\.json: field 'batchSize'/);
});
