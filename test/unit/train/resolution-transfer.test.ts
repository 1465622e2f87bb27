// Resolution transfer evaluates at the grid asked for, whatever the run's data kind:
// synthetic, a data file, a stored dataset prepared from a file (prepared again from it) and a stored
// dataset of generated data (solved at the grid by the generator by default, or its arrays resized
// when resampling is asked for). Real generator, pipeline, store and runs (cpu).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import * as tf from '../../../main/ops/tf';
import { RunStore } from '../../../main/runs/run-store';
import { trainRun } from '../../../main/train/runner';
import { evaluateRun } from '../../../main/train/evaluate-run';
import { generateDataset } from '../../../main/data/generate/index';
import { writeGeneratedDataset } from '../../../main/data/export';
import { DatasetStore } from '../../../main/data/dataset-store';
import { preparedAtResolution } from '../../../main/data/resize-prepared';
import { tempDir } from '../../helpers/env';

const ws = tempDir('lino-transfer-');
const store = new RunStore(join(ws.path, 'runs'));
let matFile = '';
const ids: Record<string, string> = {};
const split = { train: 4, val: 2, test: 0 };

before(async () => {
  await tf.setBackend('cpu');
  const gen = await generateDataset('darcy', { preset: 'tiny', resolution: 13, samples: 6 }, {}, { workers: 0 });
  matFile = (await writeGeneratedDataset(gen, join(ws.path, 'files')))[0]!;
  const ds = new DatasetStore(ws.path);
  const opts = { benchmark: 'darcy' as const, split: { ...split, seed: 1 } };
  ids.file = (await ds.prepare({ kind: 'file', path: matFile }, opts)).dataset.manifest.id;
  ids.generated = (await ds.prepare({ kind: 'generated', dataset: gen }, opts)).dataset.manifest.id;
});
after(() => ws.cleanup());

const run = async (id: string, data: Record<string, unknown>) => {
  const h = store.create({ name: id, model: { width: 6, depth: 1 }, data, epochs: 1, batchSize: 2 }, id);
  assert.equal((await trainRun(h, { workspace: ws.path })).state, 'done');
  return h;
};

// Each row says how its grid's data were made (the third entry: training grid, then the first transfer grid).
const solvedAt = (s: number) => `solved at s = ${s} by the generator (darcy 'tiny', generator seed 0; 2 validation samples, the same sample indices as at s = 13)`;
const cases: [string, () => Record<string, unknown>, number[], [string, string], ('solved' | 'resampled')?][] = [
  ['synthetic', () => ({ kind: 'synthetic', grid: [13, 13], train: 4, val: 2 }), [8, 20], ['synthetic data computed at s = 13', 'synthetic data computed at s = 8']],
  ['file', () => ({ kind: 'file', path: matFile, benchmark: 'darcy', resolution: 13, ...split }), [8, 20], ['the source file at its own s = 13', 'resampled from s = 13 (the source file, interpolated)']],
  ['dataset-from-file', () => ({ kind: 'dataset', id: ids.file }), [8, 20], ['the source file at its own s = 13', 'resampled from s = 13 (the source file, interpolated)']],
  ['dataset-generated', () => ({ kind: 'dataset', id: ids.generated }), [8, 20], ['generated at s = 13', solvedAt(8)]],
  ['dataset-generated-resampled', () => ({ kind: 'dataset', id: ids.generated }), [8, 20], ['generated at s = 13', "resampled from s = 13 (the stored dataset's arrays, interpolated)"], 'resampled'],
  ['generate', () => ({ kind: 'generate', benchmark: 'darcy', preset: 'tiny', samples: 6, generateResolution: 13, ...split }), [8], ['generated at s = 13', solvedAt(8)]],
  ['generate-resampled', () => ({ kind: 'generate', benchmark: 'darcy', preset: 'tiny', samples: 6, generateResolution: 13, ...split }), [8], ['generated at s = 13', 'resampled from s = 13 (the generated grid, interpolated)'], 'resampled'],
];

for (const [name, data, asked, origins, source] of cases) {
  test(`resolution transfer evaluates at the asked grid: ${name} data`, async () => {
    const h = await run(name, data());
    const ev = await evaluateRun(h, { resolutions: asked, ...(source ? { source } : {}) });
    assert.deepEqual(ev.resolutions.map((r) => r.grid), [[13, 13], ...asked.map((r) => [r, r])]);
    // file data cannot be solved by the generator: resampled by default, and the row says why
    assert.deepEqual(ev.resolutions.slice(0, 2).map((r) => r.origin!.split(' — not solved: ')[0]), origins);
    if (name.includes('file')) assert.match(ev.resolutions[1]!.origin!, / — not solved: .*darcy_tiny_r13_N6_seed0\.mat\)?, not .*the workbench's generator/);
    else assert.ok(!ev.resolutions[1]!.origin!.includes('not solved'), ev.resolutions[1]!.origin);
    const rel = ev.resolutions.map((r) => r.metrics.relL2);
    assert.ok(rel.every(Number.isFinite));
    // a different grid is different data: the errors differ (the bug returned the training grid's numbers)
    assert.notEqual(rel[1], rel[0]);
    assert.notEqual(rel[2], rel[0]);
    // the fields come back at that grid too
    const f = await evaluateRun(h, { resolutions: [asked[0]!], fields: true, ...(source ? { source } : {}) });
    assert.equal(f.resolutions[1]!.fields![0]!.prediction[0]!.length, asked[0]! ** 2);
  });
}

test('a stored dataset says how it reached another grid', async () => {
  const ds = new DatasetStore(ws.path);
  const a = await preparedAtResolution(await ds.open(ids.file), [9, 9]);
  assert.equal(a.how, 'source file');
  const b = await preparedAtResolution(await ds.open(ids.generated), [9, 9]);
  assert.equal(b.how, 'resized stored arrays');
  for (const d of [a.dataset, b.dataset]) {
    assert.deepEqual(d.manifest.grid, [9, 9]);
    assert.deepEqual(d.val.x.shape, [2, 9, 9, 3]);
    // coordinate channels rebuilt on the new grid
    const x = d.val.x.data as Float32Array;
    assert.equal(x[(9 * 9 - 1) * 3 + 1], 1);
    assert.equal(x[(9 * 9 - 1) * 3 + 2], 1);
  }
  // the same samples either way: resizing the 13x13 arrays of the same file differs from preparing
  // the file again only by interpolating twice
  const ya = a.dataset.val.y.data as Float32Array, yb = b.dataset.val.y.data as Float32Array;
  let num = 0, den = 0;
  for (let i = 0; i < ya.length; i++) { num += (ya[i]! - yb[i]!) ** 2; den += ya[i]! ** 2; }
  assert.ok(Math.sqrt(num / den) < 0.1, `relative difference ${Math.sqrt(num / den)}`);
});
