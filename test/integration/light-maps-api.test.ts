// runs.lightMaps through the service both hosts use and the real engine: one sample's
// maps of a trained tiny LiNO run equal what lightMaps computes in this process from the same
// checkpoint and sample; hostile input is refused naming the field.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import * as tf from '../../main/ops/tf';
import { LightMapsResult } from '../../main/api/contract';
import { RunStore } from '../../main/runs/run-store';
import { loadRunForLightMaps } from '../../main/train/light-maps-run';
import { gatherRows } from '../../main/train/data';
import { lightMaps } from '../../main/model/lino/light-maps';
import { engineService } from '../helpers/engine-service';
import { standardRun } from '../helpers/standard-runs';

const { service, workspace, trained, shared } = engineService();

const config = {
  name: 'light-maps',
  model: { width: 8, depth: 2 },
  data: { kind: 'synthetic', grid: [8, 8], train: 4, val: 3, seed: 3 },
  epochs: 1,
  batchSize: 2,
  seed: 5,
};

let runId = '';
test('a tiny trained LiNO run', { timeout: 120_000 }, async () => {
  const r = await trained(config);
  assert.equal(r.state, 'done', r.reason);
  runId = r.id;
});

test('runs.lightMaps answers every block\'s maps, gates, the input and the query\'s kernel row, equal to lightMaps on the same sample', { timeout: 60_000 }, async () => {
  const got = LightMapsResult.parse(await service.call('runs.lightMaps', { id: runId, checkpoint: 'best', split: 'val', sample: 2, query: [3, 5] }));
  assert.deepEqual([got.samples, got.grid, got.blocks.length, got.query], [3, [8, 8], 2, [3, 5]]);
  const r = await loadRunForLightMaps(new RunStore(join(workspace, 'runs')).open(runId), 'best', 'val');
  const row = gatherRows(r.split.x, [2]);
  const x = tf.tensor(row.data, row.shape);
  const want = await lightMaps(r.model, x, { query: [3, 5] });
  const C = row.shape[3]!;
  assert.equal(got.input.length, C - r.coordChannels, 'coordinates left out');
  assert.deepEqual(got.input[0], Array.from({ length: 64 }, (_, p) => row.data[p * C]!), 'the input field, row-major');
  const close = (a: number[] | undefined, b: Float32Array | Int32Array | undefined, what: string) => {
    assert.ok(a && b, `${what} present`);
    assert.equal(a.length, 64, what);
    for (let i = 0; i < a.length; i++) assert.ok(Math.abs(a[i]! - b[i]!) <= 1e-5 * (1 + Math.abs(b[i]!)), `${what}[${i}]: ${a[i]} vs ${b[i]}`);
  };
  got.blocks.forEach((g, b) => {
    const w = want.blocks[b]!;
    assert.deepEqual(g.components, w.components);
    close(g.reflectionActivity, w.reflectionActivity, `block ${b} reflection activity`);
    close(g.refractionActivity, w.refractionActivity, `block ${b} refraction activity`);
    for (const k of w.components) close(g.contribution[k], w.contribution[k], `block ${b} ${k} contribution`);
    close(g.latentNorm, w.latentNorm, `block ${b} latent norm`);
    assert.deepEqual(g.dominant, Array.from(w.dominant), `block ${b} dominant branch`);
    close(g.kernel?.row, w.kernel?.row, `block ${b} kernel row`);
    assert.deepEqual(g.kernel?.local, w.kernel?.local, `block ${b} local neighbourhood`);
    const K = w.components.length;
    assert.deepEqual(g.gates.map((v) => v.toFixed(5)), Array.from(want.gates.subarray(b * K, (b + 1) * K), (v) => v.toFixed(5)), `block ${b} gates`);
  });
  assert.ok(Math.abs(got.blocks[0]!.kernel!.row.reduce((s, v) => s + v, 0)) > 0, 'a kernel row that is not all zero');
  tf.dispose([x, want.y]);
  r.model.dispose();
});

test('runs.lightMaps refuses an unknown run, a sample or query out of range and a non-LiNO run', { timeout: 60_000 }, async () => {
  await assert.rejects(service.call('runs.lightMaps', { id: 'no-such-run' }), /no-such-run/);
  for (const id of ['../runs', '/etc', '']) await assert.rejects(service.call('runs.lightMaps', { id }), /invalid parameter 'id'/, id);
  await assert.rejects(service.call('runs.lightMaps', { id: runId, sample: 3 }), (e: Error & { details?: { field?: string } }) => /'sample'.*3 asked for.*3 samples \(0\.\.2\)/.test(e.message) && e.details?.field === 'sample');
  await assert.rejects(service.call('runs.lightMaps', { id: runId, sample: -1 }), /invalid parameter 'sample'/);
  await assert.rejects(service.call('runs.lightMaps', { id: runId, query: [8, 0] }), /invalid parameter 'query'.*\[8, 0\].*\[8, 8\]/);
  await assert.rejects(service.call('runs.lightMaps', { id: runId, query: [1] }), /invalid parameter 'query'/);
  const fno = new RunStore(join(workspace, 'runs')).create({ ...config, name: 'fno', model: { kind: 'fno', width: 8, depth: 1, modes: 2 } });
  await assert.rejects(service.call('runs.lightMaps', { id: fno.id }), /'fno' model: it has no light maps/);
});

test('an airfoil run\'s light maps carry the sample\'s C-grid node coordinates as stored (a regular grid has none)', { timeout: 240_000 }, async () => {
  const plain = LightMapsResult.parse(await service.call('runs.lightMaps', { id: runId, sample: 0 }));
  assert.equal(plain.mesh, undefined, 'a regular grid has no mesh');
  // the standard tiny airfoil run (trained once per test invocation, shared with the Playground tests)
  const afRun = await shared(standardRun('airfoil', 'lino'), 200_000);
  assert.equal(afRun.state, 'done', afRun.reason);
  const af = afRun.id;
  const got = LightMapsResult.parse(await service.call('runs.lightMaps', { id: af, sample: 0, query: [100, 3] }));
  assert.equal(got.benchmark, 'airfoil');
  assert.ok(got.mesh, 'an airfoil result has its mesh');
  const r = await loadRunForLightMaps(new RunStore(join(workspace, 'runs')).open(af), 'best', 'val');
  const row = gatherRows(r.raw.x, [0]);
  const C = row.shape[row.shape.length - 1]!;
  const N = got.grid[0]! * got.grid[1]!;
  assert.equal(got.mesh.x.length, N);
  for (const p of [0, 1, 777, N - 1]) {
    assert.equal(got.mesh.x[p], row.data[p * C], `x of node ${p} as stored`);
    assert.equal(got.mesh.y[p], row.data[p * C + 1], `y of node ${p} as stored`);
  }
  assert.equal(got.blocks[0]!.kernel?.row.length, N, 'the query node\'s kernel row over every node');
  r.model.dispose();
});
