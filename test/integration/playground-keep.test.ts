// The Playground's dataset-sample input, light maps and "keep what you found" calls
// through the service both hosts use and the real engine: a run's val sample comes back in physical
// units with its stored truth; a LiNO prediction carries its light maps from the same pass (the same
// prediction as without); the arrays are exported as .npy (prediction = the engine's, error =
// |prediction - truth|); a sample is appended to a dataset without losing or rewriting what it held;
// every hostile input is refused naming its field, and the engine keeps answering.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { PlaygroundAppendable, PlaygroundFields, PlaygroundPrediction, PlaygroundSample } from '../../main/api/contract';
import { DatasetStore } from '../../main/data/dataset-store';
import { readInputF32 } from '../../main/cli/operator-files';
import { engineService } from '../helpers/engine-service';
import { standardRun } from '../helpers/standard-runs';

const { service, workspace, trained, shared } = engineService();
const runs: Record<string, string> = {};
let sample: PlaygroundSample;

test('tiny LiNO and FNO runs on the tiny Darcy set', { timeout: 240_000 }, async () => {
  for (const kind of ['lino', 'fno'] as const) {
    const r = await shared(standardRun('darcy', kind));
    assert.equal(r.state, 'done', r.reason);
    runs[kind] = r.id;
  }
});

test('a val sample as the input: physical values with the stored truth, as datasets.sample shows them', { timeout: 60_000 }, async () => {
  sample = PlaygroundSample.parse(await service.call('playground.sample', { id: runs.lino!, split: 'val', index: 1 }));
  assert.deepEqual(sample.input.grid, [29, 29]);
  assert.equal(sample.count, 2);
  const ds = new DatasetStore(workspace).list().find((m) => m.benchmark === 'darcy')!;
  const want = (await service.call('datasets.sample', { id: ds.id, split: 'val', index: 1 })) as { x: { values: number[] }[]; y: { values: number[] }[] };
  const close = (a: number[], b: number[]) => a.every((v, i) => Math.abs(v - b[i]!) <= 1e-4 * (1 + Math.abs(b[i]!)));
  assert.ok(close(sample.input.channels[0]!, want.x[0]!.values), 'the coefficient');
  assert.ok(close(sample.truth.channels[0]!, want.y[0]!.values), 'the stored solution');
  assert.ok(sample.input.channels[0]!.every((v) => Math.abs(v - 3) < 1e-3 || Math.abs(v - 12) < 1e-3), 'a Darcy coefficient, 3 or 12');
});

test('a LiNO prediction with its light maps: per block the dominant branch and the gates, the same prediction as without', { timeout: 60_000 }, async () => {
  const truth = sample.truth;
  const plain = PlaygroundPrediction.parse(await service.call('playground.predict', { id: runs.lino!, input: sample.input, truth }));
  const withMaps = PlaygroundPrediction.parse(await service.call('playground.predict', { id: runs.lino!, input: sample.input, truth, lightMaps: true }));
  assert.equal(plain.lightMaps, undefined);
  const lm = withMaps.lightMaps!;
  assert.equal(lm.blocks.length, 2, 'one entry per block');
  for (const b of lm.blocks) {
    assert.deepEqual(b.components, ['reflection', 'refraction', 'scattering']);
    assert.equal(b.gates.length, 3);
    assert.ok(Math.abs(b.gates.reduce((a, g) => a + g, 0) - 1) < 1e-4, `gates sum to 1: ${b.gates}`);
    assert.equal(b.dominant.length, 29 * 29);
    assert.ok(b.dominant.every((k) => k >= 0 && k < 3 && Number.isInteger(k)));
  }
  assert.ok(withMaps.prediction[0]!.every((v, i) => Math.abs(v - plain.prediction[0]![i]!) <= 1e-6 * (1 + Math.abs(v))), 'the same prediction');
  assert.equal(withMaps.relL2, plain.relL2);
  await assert.rejects(service.call('playground.predict', { id: runs.fno!, input: sample.input, lightMaps: true }), (e: Error & { details?: { field?: string } }) => /'lightMaps'.*only for lino/.test(e.message) && e.details?.field === 'lightMaps');
});

test('export: input, the engine\'s prediction, truth and |error| as .npy in a new folder; a second export never replaces the first', { timeout: 60_000 }, async () => {
  const p = PlaygroundPrediction.parse(await service.call('playground.predict', { id: runs.lino!, input: sample.input }));
  const r = (await service.call('playground.export', { id: runs.lino!, input: sample.input, truth: sample.truth, name: 'found' })) as { folder: string; path: string; files: string[] };
  assert.equal(r.folder, 'found');
  assert.deepEqual(r.files.sort(), ['error.npy', 'input.npy', 'prediction.npy', 'truth.npy']);
  const read = (f: string) => readInputF32(join(workspace, 'exports', 'found', f));
  const [inp, pred, tr, err] = ['input.npy', 'prediction.npy', 'truth.npy', 'error.npy'].map(read);
  for (const a of [inp, pred, tr, err]) assert.deepEqual(a!.shape, [29, 29, 1]);
  assert.ok(Array.from(pred!.data).every((v, i) => Math.abs(v - p.prediction[0]![i]!) <= 1e-5 * (1 + Math.abs(v))), 'the prediction shown');
  assert.ok(Array.from(err!.data).every((v, i) => Math.abs(v - Math.abs(pred!.data[i]! - tr!.data[i]!)) <= 1e-6), '|prediction - truth|');
  const again = (await service.call('playground.export', { id: runs.lino!, input: sample.input, name: 'found' })) as { folder: string; files: string[] };
  assert.equal(again.folder, 'found-2');
  assert.deepEqual(again.files.sort(), ['input.npy', 'prediction.npy'], 'no truth: no truth or error file');
  assert.ok(existsSync(join(workspace, 'exports', 'found', 'truth.npy')));
  assert.ok(!readdirSync(join(workspace, 'exports')).some((f) => f.endsWith('.partial')));
});

test('append: the sample is added to a Playground dataset\'s split, what it held kept, its content hash true', { timeout: 60_000 }, async () => {
  const saved = (await service.call('playground.save', { id: runs.lino!, input: sample.input, truth: sample.truth, name: 'kept' })) as { datasetId: string };
  const store = new DatasetStore(workspace);
  const before = await store.open(saved.datasetId);
  const f32 = (a: { data: unknown }) => a.data as Float32Array;
  const painted = PlaygroundFields.parse({ grid: sample.input.grid, channels: [sample.input.channels[0]!.map((v, i) => (i % 29 < 5 ? 12 : v))] });
  const r = (await service.call('playground.save', { id: runs.lino!, input: painted, truth: sample.truth, into: saved.datasetId, split: 'val' })) as { datasetId: string; samples: number };
  assert.equal(r.datasetId, saved.datasetId);
  assert.equal(r.samples, 2);
  const after = await store.open(saved.datasetId, { verify: true });
  assert.deepEqual(after.val.x.shape, [2, 29, 29, 3]);
  assert.deepEqual(Array.from(f32(after.val.x).subarray(0, f32(before.val.x).length)), Array.from(f32(before.val.x)), 'the first sample unchanged');
  assert.deepEqual(Array.from(f32(after.train.x)), Array.from(f32(before.train.x)), 'the other splits unchanged');
  assert.equal(after.manifest.counts.val, 2);
  // the appended input, decoded with the dataset's normalizer, is the painted one
  const n = after.manifest.normalization;
  const per = 29 * 29 * 3;
  assert.ok(painted.channels[0]!.every((v, p) => Math.abs(f32(after.val.x)[per + p * 3]! * (n.x.std + n.eps) + n.x.mean - v) < 1e-4));
  // its coordinate channels are the pipeline's, as the stored sample's
  for (let p = 0; p < 29 * 29; p++) for (const c of [1, 2]) assert.equal(f32(after.val.x)[per + p * 3 + c], f32(after.val.x)[p * 3 + c], `coordinate ${c} at ${p}`);
  // two appends at once: both land, one after the other
  const both = await Promise.all([0, 1].map(() => service.call('playground.save', { id: runs.lino!, input: painted, truth: sample.truth, into: saved.datasetId, split: 'test' }) as Promise<{ samples: number }>));
  assert.deepEqual(both.map((b) => b.samples).sort(), [1, 2]);
  assert.equal((await store.open(saved.datasetId, { verify: true })).test.x.shape[0], 2);
  // only the manifest's files are left (the old ones removed once the manifest moved on)
  const files = readdirSync(store.dir(saved.datasetId)).filter((f) => f.endsWith('.npy')).sort();
  assert.deepEqual(files, Object.values(store.manifest(saved.datasetId).arrays!).map((e) => e.file).sort());
});

test('hostile inputs to sample, export and append are refused naming the field; nothing is written; the engine keeps answering', { timeout: 60_000 }, async () => {
  const input = sample.input, truth = sample.truth;
  const darcySet = new DatasetStore(workspace).list().find((m) => m.benchmark === 'darcy' && m.cacheKey)!;
  const other = (await service.call('playground.save', { id: runs.lino!, input, truth, name: 'other-grid' })) as { datasetId: string };
  const at = (n: number) => ({ grid: [n, n], channels: [Array(n * n).fill(3)] });
  const refusals: [string, string, Record<string, unknown>, RegExp][] = [
    ['an index past the split', 'playground.sample', { split: 'val', index: 2 }, /'index'.*2 asked for.*has 2 samples/],
    ['the train split', 'playground.sample', { split: 'train', index: 0 }, /'split'/],
    ['a negative index', 'playground.sample', { split: 'val', index: -1 }, /'index'/],
    ['an export name with a path', 'playground.export', { input, name: '../../etc' }, /'name'/],
    ['an export truth on another grid', 'playground.export', { input, truth: at(8), name: 'x' }, /'truth\.grid'/],
    ['an export input the model does not take', 'playground.export', { input: { grid: [64], channels: [Array(64).fill(3)] }, name: 'x' }, /'input\.grid'/],
    ['append to no such dataset', 'playground.save', { input, truth, into: 'no-such-set' }, /'into'.*no dataset 'no-such-set'/],
    ['append to a dataset id with a path', 'playground.save', { input, truth, into: '../runs' }, /'into'/],
    ['append to another grid', 'playground.save', { input: at(37), truth: at(37), into: other.datasetId }, /'into'.*grid \[29, 29\].*\[37, 37\]/],
    ['append to the run\'s own (cached) data', 'playground.save', { input, truth, into: darcySet.id }, /'into'.*(cache key|data of run)/],
    ['append to an unknown split', 'playground.save', { input, truth, into: other.datasetId, split: 'all' }, /'split'/],
  ];
  const wrong: string[] = [];
  for (const [what, method, params, re] of refusals) {
    const got = await service.call(method as never, { id: runs.lino!, ...params } as never).then(() => 'accepted', (e: Error) => e.message);
    if (!re.test(got)) wrong.push(`${what}: ${got}`);
  }
  assert.deepEqual(wrong, [], 'each refusal names its field');
  // another benchmark: a one-sample set whose manifest says burgers (a Playground save of another run would)
  const store = new DatasetStore(workspace);
  const m = store.manifest(other.datasetId);
  const burgers = (await store.open(other.datasetId));
  burgers.manifest = { ...m, id: 'burgers-like', benchmark: 'burgers' };
  store.save(burgers);
  await assert.rejects(service.call('playground.save', { id: runs.lino!, input, truth, into: 'burgers-like' }), (e: Error & { details?: { field?: string } }) => /'into'.*'burgers' data.*'darcy'/.test(e.message) && e.details?.field === 'into');
  // a dataset a run trained on is refused too
  const r = await trained({ name: 'on kept', model: { width: 4, depth: 1 }, data: { kind: 'dataset', id: other.datasetId }, epochs: 1, batchSize: 1 }, 60_000);
  assert.equal(r.state, 'done', r.reason);
  await assert.rejects(service.call('playground.save', { id: runs.lino!, input, truth, into: other.datasetId }), /'into'.*data of run .*appending would change/);
  assert.equal(store.manifest(other.datasetId).counts.val, 1, 'nothing appended by a refused call');
  // what "Add to dataset" offers: the same refusals, asked once for every dataset
  const why = Object.fromEntries(PlaygroundAppendable.parse(await service.call('playground.appendable', { id: runs.lino!, grid: [29, 29] })).datasets.map((d) => [d.id, d.refusal]));
  assert.equal(why.kept, null, 'a Playground dataset no run trained on takes the sample');
  assert.match(why[other.datasetId] ?? '', /data of run/);
  assert.match(why['burgers-like'] ?? '', /'burgers' data/);
  assert.match(why[darcySet.id] ?? '', /cache key|data of run/, "the run's own prepared training set");
  assert.match(PlaygroundAppendable.parse(await service.call('playground.appendable', { id: runs.lino!, grid: [37, 37] })).datasets.find((d) => d.id === 'kept')?.refusal ?? '', /grid \[29, 29\].*\[37, 37\]/);
  assert.ok(!existsSync(join(workspace, 'exports', 'x')));
  const t = Date.now();
  assert.equal(((await service.call('engine.ping', { t })) as { t: number }).t, t);
});
