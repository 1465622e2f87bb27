// Every dataset made in the app has a test split by default (generate and import, with
// the split's seed), a run trained on it records its test error, and the Runs table shows it; a
// run on data without a test split shows '—' and says why. Real generator, pipeline, store, trainer.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import * as tf from '../../../main/ops/tf';
import { defaultTestCount } from '../../../main/data/stages/split';
import { defaultTestCount as formDefault, checkGenerate } from '../../../renderer/src/logic/generate-params';
import { testCell } from '../../../renderer/src/logic/run-metrics';
import { askedSplit, runGenerate, runImport } from '../../../main/engine/dataset-jobs';
import { generateDataset } from '../../../main/data/generate/index';
import { writeGeneratedDataset } from '../../../main/data/export';
import { DatasetStore } from '../../../main/data/dataset-store';
import { RunStore } from '../../../main/runs/run-store';
import { trainRun } from '../../../main/train/runner';
import { GenerateParams, ImportParams } from '../../../main/api/jobs';
import { tempDir } from '../../helpers/env';

const ws = tempDir('lino-test-split-');
after(() => ws.cleanup());
const ctx = { signal: new AbortController().signal, progress() {} };

test('default test count: 10 % (at least one from 3 samples), within what train and validation asked leave; the form mirrors it', () => {
  assert.equal(defaultTestCount(2), 0, 'two samples only split into train and validation');
  assert.equal(defaultTestCount(3), 1);
  assert.equal(defaultTestCount(6), 1);
  assert.equal(defaultTestCount(100), 10);
  assert.equal(defaultTestCount(1024), 102);
  assert.equal(defaultTestCount(10, { train: 8, val: 2 }), 0, 'train + val take every sample');
  assert.equal(defaultTestCount(10, { train: 8 }), 1);
  for (let n = 2; n <= 300; n++) {
    for (const asked of [{}, { train: Math.floor(n / 2) }, { val: 1 }, { train: n - 2, val: 1 }]) assert.equal(formDefault(n, asked), defaultTestCount(n, asked), `n ${n} ${JSON.stringify(asked)}`);
  }
  assert.deepEqual(askedSplit({}, 20), { test: 2 });
  assert.deepEqual(askedSplit({ test: 0, splitSeed: 7 }, 20), { test: 0, seed: 7 }, 'an explicit 0 is kept');
  // the form no longer warns about a missing test split unless Test is 0; a bad split seed is named
  const blank = { samples: '20', seed: '0', resolution: '', train: '', val: '', test: '' };
  assert.doesNotMatch(checkGenerate('darcy', blank, {}).warnings.join(' '), /No test split/);
  assert.match(checkGenerate('darcy', { ...blank, test: '0' }, {}).warnings.join(' '), /No test split/);
  assert.match(checkGenerate('darcy', { ...blank, splitSeed: '-1' }, {}).problems.splitSeed!, /Split seed must be a whole number/);
});

test('generate and import params take test and splitSeed; a bad split seed is refused by name', () => {
  assert.equal(GenerateParams.safeParse({ benchmark: 'darcy', preset: 'tiny', test: 2, splitSeed: 3 }).success, true);
  const bad = GenerateParams.safeParse({ benchmark: 'darcy', preset: 'tiny', splitSeed: -1 });
  assert.equal(bad.success, false);
  assert.deepEqual(bad.error!.issues[0]!.path, ['splitSeed']);
  const imp = ImportParams.safeParse({ file: 'f_abcdefgh12', benchmark: 'darcy', input: ['coeff'], target: 'sol', test: -1 });
  assert.equal(imp.success, false);
  assert.deepEqual(imp.error!.issues[0]!.path, ['test']);
});

test('the Training view\'s generated data keep a test split (the preset\'s samples known), a stored dataset is used as it is', async () => {
  const { dataSpecFor } = await import('../../../renderer/src/logic/generate-params');
  assert.deepEqual(dataSpecFor('generate:darcy:quick', 1024), { kind: 'generate', benchmark: 'darcy', preset: 'quick', test: 102 });
  assert.deepEqual(dataSpecFor('generate:darcy:tiny'), { kind: 'generate', benchmark: 'darcy', preset: 'tiny' }, 'presets not listed yet: the engine\'s rule');
  assert.deepEqual(dataSpecFor('generate:darcy:tiny', 6), { kind: 'generate', benchmark: 'darcy', preset: 'tiny' }, 'six samples keep two for validation');
  assert.deepEqual(dataSpecFor('dataset:darcy-abc'), { kind: 'dataset', id: 'darcy-abc' });
});

let file = '';
const importFile = async (extra: Record<string, unknown> = {}) => (await runImport({ workspace: ws.path, path: file, benchmark: 'darcy', input: ['coeff'], target: 'sol', ...extra }, ctx)) as { id: string; counts: { train: number; val: number; test: number } };

test('generate and import make a test split by default; the split seed is used', async () => {
  const g = (await runGenerate({ workspace: ws.path, benchmark: 'darcy', preset: 'tiny', samples: 10, resolution: 10, splitSeed: 5 }, ctx)) as { id: string; counts: { train: number; val: number; test: number } };
  assert.deepEqual(g.counts, { train: 7, val: 2, test: 1 });
  const store = new DatasetStore(ws.path);
  assert.equal(((await store.open(g.id)).manifest.parameters.split as { seed?: number }).seed, 5, 'generate: the split seed asked for');
  const gen = await generateDataset('darcy', { preset: 'tiny', samples: 10, resolution: 10 }, {}, { workers: 0 });
  file = (await writeGeneratedDataset(gen, join(ws.path, 'files')))[0]!;
  const imp = await importFile();
  assert.equal(imp.counts.test, 1, 'import: 10 % test by default');
  const [a, b] = [await store.open(imp.id), await store.open((await importFile({ splitSeed: 5 })).id)];
  assert.notDeepEqual([...b.train.indices], [...a.train.indices], 'another split seed, another shuffle');
  assert.deepEqual((await importFile({ train: 5, val: 2, test: 3, splitSeed: 9 })).counts, { train: 5, val: 2, test: 3 });
  await assert.rejects(importFile({ train: 8, val: 2, test: 3 }), /train 8 \+ validation 2 \+ test 3 = 13 samples, the dataset has 10/);
});

test('a run on data with a test split records its test relL2 (Runs table filled); one without says why it shows —', async () => {
  await tf.setBackend('cpu');
  const g = await importFile();
  const old = await importFile({ test: 0 });
  const runs = new RunStore(join(ws.path, 'runs'));
  const summaries = [];
  for (const [name, id] of [['with-test', g.id], ['no-test', old.id]] as const) {
    const h = runs.create({ name, model: { width: 4, depth: 1 }, data: { kind: 'dataset', id }, epochs: 1, batchSize: 2 }, name);
    assert.equal((await trainRun(h, { workspace: ws.path })).state, 'done');
    summaries.push(h.summary());
  }
  const [withTest, noTest] = summaries;
  assert.equal(withTest!.testSamples, 1);
  assert.ok(Number.isFinite(withTest!.bestTestRelL2!) && withTest!.bestTestRelL2! > 0);
  assert.deepEqual(testCell(withTest!), { text: withTest!.bestTestRelL2!.toPrecision(4) });
  assert.equal(noTest!.testSamples, 0);
  assert.equal(noTest!.bestTestRelL2, null);
  const cell = testCell(noTest!);
  assert.equal(cell.text, '—');
  assert.match(cell.why!, /No test split: the data this run trained on has 0 test samples/);
  assert.match(testCell({ epochsDone: 0, testSamples: null }).why!, /No epoch has finished yet/);
});
