// The Playground's engine calls through the service both hosts use and the real engine:
// a tiny Darcy LiNO predicts a painted coefficient, the solver's truth (a job in its own lane) equals
// the generator's solution of the same coefficient, relL2 equals `lino predict` on the saved
// one-sample dataset against its saved truth, and every hostile input is refused naming its field.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { PlaygroundFields, PlaygroundPrediction, PlaygroundTruth } from '../../main/api/contract';
import { DatasetStore } from '../../main/data/dataset-store';
import { engineService } from '../helpers/engine-service';
import { predictSavedInput } from '../helpers/predict-saved';
import { standardRun } from '../helpers/standard-runs';

const { service, workspace, trained, shared, settled } = engineService();

const runs: Record<string, string> = {};

test('tiny LiNO, FNO and DeepONet runs on the tiny Darcy set, and a synthetic one', { timeout: 240_000 }, async () => {
  for (const kind of ['lino', 'fno', 'deeponet'] as const) {
    const r = await shared(standardRun('darcy', kind));
    assert.equal(r.state, 'done', r.reason);
    runs[kind] = r.id;
  }
  const s = await trained({ name: 'pg synthetic', model: { width: 4, depth: 1 }, data: { kind: 'synthetic', grid: [8, 8], train: 2, val: 1 }, epochs: 1, batchSize: 2 });
  assert.equal(s.state, 'done', s.reason);
  runs.synthetic = s.id;
});

const coefficient = async (resolution: number, seed: number) => PlaygroundFields.parse(await service.call('playground.draw', { id: runs.lino!, resolution, seed, tau: 3, threshold: 0 }));

async function truthOf(id: string, input: PlaygroundFields): Promise<PlaygroundTruth> {
  const job = (await service.call('playground.solve', { id, input })) as { id: string; lane?: string };
  assert.equal(job.lane, 'playground-solve', 'the solver runs in a lane of its own');
  const done = await settled(job.id, 60_000);
  assert.equal(done.state, 'done', done.error);
  return PlaygroundTruth.parse(done.result);
}

test('a drawn coefficient is 3 or 12, the same for the same seed; the solver\'s truth equals the tiny set\'s own solution of its coefficient', { timeout: 120_000 }, async () => {
  const a = await coefficient(29, 7);
  assert.deepEqual(a.grid, [29, 29]);
  assert.ok(a.channels[0]!.every((v) => v === 3 || v === 12));
  assert.ok(new Set(a.channels[0]).size === 2, 'both values appear');
  assert.deepEqual((await coefficient(29, 7)).channels, a.channels, 'seeded');
  // a stored sample of the generated set: the tiny preset solves on its own 29 x 29 grid
  const ds = new DatasetStore(workspace).list().find((m) => m.benchmark === 'darcy')!;
  const sample = (await service.call('datasets.sample', { id: ds.id, split: 'val', index: 0 })) as { x: { values: number[] }[]; y: { values: number[] }[] };
  const input = { grid: [29, 29], channels: [sample.x[0]!.values.map((v) => Math.round(v))] };
  const t = await truthOf(runs.lino!, input);
  const want = sample.y[0]!.values;
  let num = 0, den = 0;
  t.truth[0]!.forEach((v, i) => { num += (v - want[i]!) ** 2; den += want[i]! ** 2; });
  assert.ok(Math.sqrt(num / den) < 1e-4, `truth vs the generator's solution: rel. ${Math.sqrt(num / den)}`);
});

test('every model kind predicts a painted input; relL2 against the truth equals lino predict on the saved dataset to 1e-5', { timeout: 120_000 }, async () => {
  const input = await coefficient(29, 3);
  // paint a stroke of 12 across the middle rows
  for (let i = 12; i < 16; i++) for (let j = 4; j < 25; j++) input.channels[0]![i * 29 + j] = 12;
  const truth = await truthOf(runs.lino!, input);
  for (const kind of ['lino', 'fno', 'deeponet']) {
    const p = PlaygroundPrediction.parse(await service.call('playground.predict', { id: runs[kind]!, input, truth: { grid: truth.grid, channels: truth.truth } }));
    assert.equal(p.kind, kind);
    assert.equal(p.benchmark, 'darcy');
    assert.equal(p.prediction[0]!.length, 29 * 29);
    assert.ok(p.prediction[0]!.every(Number.isFinite));
    assert.ok(p.relL2 !== null && p.relL2 > 0 && Number.isFinite(p.relL2), `${kind} relL2 ${p.relL2}`);
    assert.ok(['in', 'edge', 'out'].includes(p.distance.level) && p.distance.label.length > 10);
  }
  const shown = PlaygroundPrediction.parse(await service.call('playground.predict', { id: runs.lino!, input, truth: { grid: truth.grid, channels: truth.truth } })).relL2!;
  const saved = (await service.call('playground.save', { id: runs.lino!, input, truth: { grid: truth.grid, channels: truth.truth }, name: 'pg-stroke' })) as { datasetId: string };
  assert.equal(saved.datasetId, 'pg-stroke');
  // lino predict on the saved input (val_x, encoded as the run's model takes it) against the saved truth
  const dir = join(workspace, 'datasets', saved.datasetId);
  const { relL2: cli, ref, k, mu } = await predictSavedInput(workspace, runs.lino!, saved.datasetId);
  assert.ok(Math.abs(cli - shown) <= 1e-5, `shown relL2 ${shown} vs lino predict ${cli}`);
  // the saved truth is the solver's, to float32
  assert.ok(Array.from(ref).every((v, i) => Math.abs(v * k + mu - truth.truth[0]![i]!) <= 1e-5 * (1 + Math.abs(truth.truth[0]![i]!))));
  // saving again never replaces it
  const again = (await service.call('playground.save', { id: runs.lino!, input, truth: { grid: truth.grid, channels: truth.truth }, name: 'pg-stroke' })) as { datasetId: string };
  assert.equal(again.datasetId, 'pg-stroke-2');
  assert.ok(existsSync(join(dir, 'manifest.json')));
});

test('LiNO and FNO predict at another resolution; DeepONet refuses a grid other than its own, naming input.grid', { timeout: 60_000 }, async () => {
  const input = await coefficient(37, 1);
  for (const kind of ['lino', 'fno']) {
    const p = PlaygroundPrediction.parse(await service.call('playground.predict', { id: runs[kind]!, input }));
    assert.deepEqual(p.grid, [37, 37]);
    assert.equal(p.relL2, null);
  }
  await assert.rejects(service.call('playground.predict', { id: runs.deeponet!, input }), (e: Error & { details?: { field?: string } }) => /input\.grid.*deeponet model takes only its training grid \[29, 29\]/.test(e.message) && e.details?.field === 'input.grid');
});

test('a Burgers run: a fresh u0 at the run\'s grid, a bump added, its truth by the pseudo-spectral solver, relL2 against the prediction; a grid that is not a power of two is refused', { timeout: 180_000 }, async () => {
  const r = await trained({ name: 'pg burgers', model: { width: 8, depth: 1 }, data: { kind: 'generate', benchmark: 'burgers', preset: 'tiny', train: 3, val: 1 }, epochs: 1, batchSize: 2 }, 150_000);
  assert.equal(r.state, 'done', r.reason);
  const u0 = PlaygroundFields.parse(await service.call('playground.draw', { id: r.id, seed: 2 }));
  assert.deepEqual(u0.grid, [64], 'the run\'s own grid');
  u0.channels[0] = u0.channels[0]!.map((v, k) => v + 0.5 * Math.exp(-(((k - 20) / 4) ** 2)));
  const truth = await truthOf(r.id, u0);
  assert.match(truth.solver, /burgers pseudo-spectral/);
  assert.ok(truth.truth[0]!.every(Number.isFinite) && truth.truth[0]!.some((v, k) => v !== u0.channels[0]![k]), 'the solution moved on from u0');
  const p = PlaygroundPrediction.parse(await service.call('playground.predict', { id: r.id, input: u0, truth: { grid: truth.grid, channels: truth.truth } }));
  assert.equal(p.benchmark, 'burgers');
  assert.ok(p.relL2 !== null && Number.isFinite(p.relL2));
  await assert.rejects(service.call('playground.draw', { id: r.id, seed: 2, resolution: 100 }), /'resolution'.*power-of-two/);
  await assert.rejects(service.call('playground.solve', { id: r.id, input: { grid: [100], channels: [Array(100).fill(0)] } }), /'input\.grid'.*power-of-two/);
});

type Refusal = [string, string, Record<string, unknown>, RegExp];
const grid = [29, 29];
const ok = () => Array.from({ length: 29 * 29 }, () => 12);
const refusals = (): Refusal[] => [
  ['three axes', 'playground.predict', { input: { grid: [4, 4, 4], channels: [[]] } }, /'input\.grid'.*one or two axes/],
  ['no axis', 'playground.predict', { input: { grid: [], channels: [[]] } }, /'input\.grid'/],
  ['a grid too large', 'playground.predict', { input: { grid: [1024, 1024], channels: [[1]] } }, /'input\.grid'.*1048576 points, at most 262144/],
  ['too few values', 'playground.predict', { input: { grid, channels: [[1, 2, 3]] } }, /'input\.channels\.0'.*3 values, expected 841/],
  ['a non-number value', 'playground.predict', { input: { grid, channels: [[...ok().slice(1), 'x']] } }, /'input\.channels\.0\.840'/],
  ['a NaN', 'playground.predict', { input: { grid, channels: [[NaN, ...ok().slice(1)]] } }, /'input\.channels\.0\.0'/],
  ['an infinity', 'playground.solve', { input: { grid, channels: [[...ok().slice(1), Infinity]] } }, /'input\.channels\.0\.840'/],
  ['too many channels', 'playground.predict', { input: { grid, channels: Array.from({ length: 65 }, ok) } }, /'input\.channels'.*at most 64/],
  ['channels the model does not take', 'playground.predict', { input: { grid, channels: [ok(), ok()] } }, /'input\.channels'.*2 channels, the run's model takes 1/],
  ['a 1D input to a 2D model', 'playground.predict', { input: { grid: [64], channels: [Array(64).fill(3)] } }, /'input\.grid'.*1 axes, the run's model is 2D/],
  ['a truth on another grid', 'playground.predict', { input: { grid, channels: [ok()] }, truth: { grid: [8, 8], channels: [Array(64).fill(0)] } }, /'truth\.grid'/],
  ['an unknown field', 'playground.predict', { input: { grid, channels: [ok()], path: '/etc' } }, /'input'.*unknown field 'path'/],
  ['a non-positive coefficient', 'playground.solve', { input: { grid, channels: [[0, ...ok().slice(1)]] } }, /'input\.channels\.0'.*positive everywhere/],
  ['a non-square Darcy grid', 'playground.solve', { input: { grid: [29, 30], channels: [Array(29 * 30).fill(3)] } }, /'input\.grid'.*square grid/],
  ['a resolution too large to draw', 'playground.draw', { resolution: 4096, seed: 1 }, /'resolution'.*at most 512/],
  ['a negative seed', 'playground.draw', { resolution: 29, seed: -1 }, /'seed'/],
  ['a dataset name with a path', 'playground.save', { input: { grid, channels: [ok()] }, truth: { grid, channels: [ok()] }, name: '../runs' }, /'name'/],
  ['a save without truth', 'playground.save', { input: { grid, channels: [ok()] } }, /'truth'/],
];

test('hostile inputs are refused, each naming its field, and the engine keeps answering', { timeout: 60_000 }, async () => {
  const wrong: string[] = [];
  for (const [what, method, params, re] of refusals()) {
    const got = await service.call(method as never, { id: runs.lino!, ...params } as never).then(() => 'accepted', (e: Error) => e.message);
    if (!re.test(got)) wrong.push(`${what}: ${got}`);
  }
  assert.deepEqual(wrong, [], 'each refusal names its field');
  for (const id of ['../runs', '', 'no-such-run']) await assert.rejects(service.call('playground.predict', { id, input: { grid, channels: [ok()] } }), /'id'|no-such-run/, id);
  await assert.rejects(service.call('playground.solve', { id: runs.synthetic!, input: { grid: [8, 8], channels: [Array(64).fill(1)] } }), (e: Error & { details?: { field?: string } }) => /no built-in solver/.test(e.message) && e.details?.field === 'id');
  await assert.rejects(service.call('playground.draw', { id: runs.synthetic!, resolution: 8, seed: 1 }), /drawn for darcy, burgers and navier-stokes runs/);
  const t = Date.now();
  assert.equal(((await service.call('engine.ping', { t })) as { t: number }).t, t);
});
