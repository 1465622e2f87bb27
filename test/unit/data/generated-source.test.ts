import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { generateDataset } from '../../../main/data/generate/index';
import { writeGeneratedDataset } from '../../../main/data/export';
import { openDataFile } from '../../../main/data/formats/index';
import { prepareDataset } from '../../../main/data/pipeline';
import { DatasetStore } from '../../../main/data/dataset-store';
import { main } from '../../../main/cli/lino';

test('generated Darcy (tiny) goes through the same pipeline as its written MAT v7.3 file, and is cached', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'lino-gen-'));
  try {
    const gen = await generateDataset('darcy', { preset: 'tiny', samples: 4 }, {}, { workers: 0 });
    const files = await writeGeneratedDataset(gen, dir);
    const f = await openDataFile(files[0]);
    for (const k of ['coeff', 'sol']) {
      const back = await f.read(k);
      assert.deepEqual([...back.shape], [...gen.variables[k].shape]);
      assert.deepEqual(Array.from(back.data as Float32Array), Array.from(gen.variables[k].data as Float32Array), k);
    }
    f.close();
    const opts = { benchmark: 'darcy' as const, split: { train: 3, val: 1, seed: 2 }, resolution: 15 };
    const fromGen = await prepareDataset({ kind: 'generated', dataset: gen }, opts);
    const fromFile = await prepareDataset({ kind: 'file', path: files[0] }, opts);
    assert.deepEqual(Array.from(fromGen.train.x.data as Float32Array), Array.from(fromFile.train.x.data as Float32Array));
    assert.deepEqual(fromGen.manifest.normalization, fromFile.manifest.normalization);
    assert.equal(fromGen.manifest.source.kind, 'generated');
    const store = new DatasetStore(join(dir, 'ws'));
    assert.equal((await store.prepare({ kind: 'generated', dataset: gen }, opts)).cached, false);
    assert.equal((await store.prepare({ kind: 'generated', dataset: gen }, opts)).cached, true);
  } finally { rmSync(dir, { recursive: true, force: true }); }
});

test('lino data generate writes the published layout and caches the prepared dataset', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'lino-gencli-'));
  try {
    const code = await main(['data', 'generate', 'darcy', '--preset', 'tiny', '--samples', '3', '--seed', '5', '--out', dir, '--workspace', join(dir, 'ws')]);
    assert.equal(code, 0);
    assert.ok(existsSync(join(dir, 'darcy_tiny_r29_N3_seed5.mat')));
    assert.equal(new DatasetStore(join(dir, 'ws')).list().length, 1);
    assert.equal(await main(['data', 'generate', 'heat', '--preset', 'tiny', '--out', dir]), 1);
  } finally { rmSync(dir, { recursive: true, force: true }); }
});
