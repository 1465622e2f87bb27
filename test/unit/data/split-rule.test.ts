// The one split rule (main/data/stages/split.ts defaultSplit) and the one Navier-Stokes normalizer
// default, as every path that prepares data uses them: run configs with file or generated data,
// the app's import and `lino data generate --workspace` (releaseOptions).
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { defaultSplit } from '../../../main/data/stages/split';
import { DEFAULT_NS_NORMALIZER, countSamples, releaseOptions } from '../../../main/data/pipeline';
import { loadTrainData, pipelineOptions } from '../../../main/train/data-source';
import { generateDataset } from '../../../main/data/generate/index';
import { writeGeneratedDataset } from '../../../main/data/export';
import { DataSpec } from '../../../main/api/contract';
import { tempDir } from '../../helpers/env';
import { fix } from '../../helpers/data-fixtures';

const ws = tempDir('lino-split-rule-');
after(() => ws.cleanup());

test('defaultSplit: release counts when they fit, 80/20 otherwise, given counts kept, the other capped', () => {
  const darcy = { train: 800, val: 224 };
  assert.deepEqual(defaultSplit(1024, darcy), { train: 800, val: 224, test: 0 });
  assert.deepEqual(defaultSplit(2048, darcy), { train: 800, val: 224, test: 0 });
  assert.deepEqual(defaultSplit(8, darcy), { train: 6, val: 2, test: 0 });
  assert.deepEqual(defaultSplit(8, undefined), { train: 6, val: 2, test: 0 }, 'custom data: 80/20');
  assert.deepEqual(defaultSplit(1, darcy), { train: 1, val: 0, test: 0 });
  assert.deepEqual(defaultSplit(10, darcy, { test: 5 }), { train: 4, val: 1, test: 5 });
  assert.deepEqual(defaultSplit(8, darcy, { train: 7 }), { train: 7, val: 1, test: 0 });
  assert.deepEqual(defaultSplit(1024, darcy, { train: 100 }), { train: 100, val: 224, test: 0 });
  assert.deepEqual(defaultSplit(8, darcy, { val: 4 }), { train: 4, val: 4, test: 0 });
  assert.deepEqual(defaultSplit(8, darcy, { train: 3, val: 3 }), { train: 3, val: 3, test: 0 });
});

test('releaseOptions and pipelineOptions size splits by the rule; the Navier-Stokes normalizer defaults to the release\'s', () => {
  assert.equal(DEFAULT_NS_NORMALIZER, 'separate');
  assert.deepEqual(releaseOptions('darcy', 8).split, { train: 6, val: 2, seed: 42 });
  assert.deepEqual(releaseOptions('custom', 10).split, { train: 8, val: 2, seed: 42 });
  assert.deepEqual(releaseOptions('airfoil', 1200).split, { train: 1000, val: 200, shuffle: false });
  assert.equal(releaseOptions('navier-stokes', 5000).ns?.normalizer, 'separate');
  const spec = DataSpec.parse({ kind: 'file', benchmark: 'navier-stokes', path: 'x.mat' }) as Extract<DataSpec, { kind: 'file' }>;
  assert.equal(pipelineOptions(spec, 8).ns?.normalizer, 'separate', 'run configs: the same default as imports');
  assert.deepEqual(pipelineOptions({ ...spec, train: 5 }, 8).split, { train: 5, val: 2, seed: 42 });
});

test('file data without split sizes: an 8-sample Darcy file trains on 6 and validates on 2 (was: "train 800 + validation 224")', async () => {
  const gen = await generateDataset('darcy', { preset: 'tiny', samples: 8, resolution: 9 });
  const [file] = await writeGeneratedDataset(gen, join(ws.path, 'darcy8'), 'mat73');
  assert.equal(await countSamples({ kind: 'file', path: file! }, 'darcy'), 8);
  const spec = DataSpec.parse({ kind: 'file', benchmark: 'darcy', path: file, resolution: 9 });
  const data = await loadTrainData(spec);
  assert.equal(data.train.x.shape[0], 6);
  assert.equal(data.val.x.shape[0], 2);
  const custom = await loadTrainData(DataSpec.parse({ kind: 'file', benchmark: 'custom', path: fix('darcy_v5.mat'), input: ['coeff'], target: 'sol' }));
  assert.equal(custom.train.x.shape[0], 4, 'custom 5-sample file: 4 train (was 9007199254740991)');
  assert.equal(custom.val.x.shape[0], 1);
});
