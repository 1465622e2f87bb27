// Hardening III, repro 7: the Playground accepted values float32 cannot hold. playground.save with
// 1e308 wrote a dataset whose statistics were all null; with `into` it corrupted an existing
// dataset's max, mean and std; playground.solve with a coefficient of 1e308 ended 'done' with an
// all-null truth; playground.predict answered "the host produced an invalid result". Through the
// real engine now: each is refused naming the field (a value finite in float32 that overflows once
// encoded with the run's normalizer too), nothing is written, and the statistics stay numbers.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { PlaygroundSample, PlaygroundTruth, type PlaygroundFields } from '../../main/api/contract';
import { engineService } from './../helpers/engine-service';

const { service, workspace, trained, settled } = engineService();
let runId = '';
let sample: PlaygroundSample;

type Stats = { x: { min: number | null; max: number | null; mean: number | null; std: number | null }[]; y: Stats['x'] };
const stats = async (id: string, split: string) => (await service.call('datasets.stats', { id, split } as never)) as Stats;
const datasets = () => readdirSync(join(workspace, 'datasets')).filter((n) => !n.startsWith('.')).sort();
/** `f` with value 5 of channel 0 set to `v`. */
const withValue = (f: PlaygroundFields, v: number): PlaygroundFields => ({ grid: f.grid, channels: f.channels.map((c, i) => (i === 0 ? c.map((x, k) => (k === 5 ? v : x)) : c)) });
const refusal = (p: Promise<unknown>) => p.then(() => 'accepted', (e: Error & { details?: { field?: string } }) => `${e.details?.field ?? '-'} | ${e.message}`);

test('a tiny LiNO run on the tiny Darcy set', { timeout: 240_000 }, async () => {
  const r = await trained({ name: 'finite', model: { width: 8, depth: 1 }, data: { kind: 'generate', benchmark: 'darcy', preset: 'tiny', train: 4, val: 2 }, epochs: 1, batchSize: 2, seed: 1 }, 200_000);
  assert.equal(r.state, 'done', r.reason);
  runId = r.id;
  sample = PlaygroundSample.parse(await service.call('playground.sample', { id: runId, split: 'val', index: 0 }));
});

test('1e308 in an input or a truth is refused naming the field, by save, predict, solve and export; no dataset is written', { timeout: 60_000 }, async () => {
  const before = datasets();
  const bad = withValue(sample.input, 1e308);
  const cases: [string, Promise<unknown>, RegExp][] = [
    ['save input', service.call('playground.save', { id: runId, input: bad, truth: sample.truth } as never), /^input\.channels\.0\.5 \| .*'input\.channels\.0\.5'.*1e\+308 is not finite in float32 \(expected a number with \|v\| <= 3\.4028234e38\)/],
    ['save truth', service.call('playground.save', { id: runId, input: sample.input, truth: withValue(sample.truth, -1e308) } as never), /'truth\.channels\.0\.5'.*-1e\+308 is not finite in float32/],
    ['predict', service.call('playground.predict', { id: runId, input: bad } as never), /'input\.channels\.0\.5'.*not finite in float32/],
    ['predict truth', service.call('playground.predict', { id: runId, input: sample.input, truth: withValue(sample.truth, 1e308) } as never), /'truth\.channels\.0\.5'.*not finite in float32/],
    ['solve', service.call('playground.solve', { id: runId, input: bad } as never), /'input\.channels\.0\.5'.*not finite in float32/],
    ['export', service.call('playground.export', { id: runId, input: bad } as never), /'input\.channels\.0\.5'.*not finite in float32/],
  ];
  const wrong: string[] = [];
  for (const [what, p, re] of cases) {
    const got = await refusal(p);
    if (!re.test(got)) wrong.push(`${what}: ${got}`);
  }
  assert.deepEqual(wrong, []);
  assert.deepEqual(datasets(), before, 'no dataset written');
});

test('a truth finite in float32 that overflows once encoded with the run\'s normalizer is refused naming the value\'s field', { timeout: 60_000 }, async () => {
  const before = datasets();
  // Darcy solutions are ~1e-2: their std is far below 1, so 3e38 / std leaves float32
  const got = await refusal(service.call('playground.save', { id: runId, input: sample.input, truth: withValue(sample.truth, 3e38) } as never));
  assert.match(got, /^truth\.channels\.0\.5 \| .*3e\+38 becomes Infinity in float32 once encoded with the run's y normalizer/);
  assert.deepEqual(datasets(), before);
});

test('append (`into`) of a non-float32 sample is refused; the dataset\'s statistics stay what they were, all numbers', { timeout: 60_000 }, async () => {
  const saved = (await service.call('playground.save', { id: runId, input: sample.input, truth: sample.truth, name: 'clean' } as never)) as { datasetId: string };
  const clean = await stats(saved.datasetId, 'val');
  for (const c of [...clean.x, ...clean.y]) for (const v of [c.min, c.max, c.mean, c.std]) assert.equal(typeof v, 'number');
  for (const [input, truth] of [[withValue(sample.input, 1e308), sample.truth], [sample.input, withValue(sample.truth, 3e38)]] as const) {
    const got = await refusal(service.call('playground.save', { id: runId, input, truth, into: saved.datasetId, split: 'val' } as never));
    assert.match(got, /^(input|truth)\.channels\.0\.5 \| .*float32/);
  }
  assert.deepEqual(await stats(saved.datasetId, 'val'), clean, 'unchanged');
});

test('an input the model overflows on is refused naming the input, never "an invalid result"; a solve ends done with numbers or fails naming the input', { timeout: 120_000 }, async () => {
  // every point at the float32 limit: finite as given and once encoded, but the model's sums overflow
  const huge = { grid: sample.input.grid, channels: sample.input.channels.map((c) => c.map(() => 3.4e38)) };
  const got = await service.call('playground.predict', { id: runId, input: huge } as never).then(
    (r) => ((r as { prediction: number[][] }).prediction.every((c) => c.every((v) => typeof v === 'number' && Number.isFinite(v))) ? 'finite' : 'nulls'),
    (e: Error & { details?: { field?: string } }) => `${e.details?.field} | ${e.message}`,
  );
  assert.ok(got === 'finite' || /^input \| .*the model's prediction for this input is .* \(not finite in float32\)/.test(got), got);
  const job = (await service.call('playground.solve', { id: runId, input: huge } as never)) as { id: string };
  const done = await settled(job.id, 60_000);
  if (done.state === 'done') {
    const t = PlaygroundTruth.parse(done.result);
    assert.ok(t.truth.every((c) => c.every((v) => typeof v === 'number' && Number.isFinite(v))), 'a truth of numbers');
  } else {
    assert.equal(done.state, 'failed');
    assert.match(done.error ?? '', /field 'input': the darcy solver's truth for it is .* \(not finite in float32\)/);
  }
  const t = Date.now();
  assert.equal(((await service.call('engine.ping', { t })) as { t: number }).t, t, 'the engine keeps answering');
});
