import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { generateDataset } from '../../../main/data/generate/index';
import { writeGeneratedDataset } from '../../../main/data/export';
import { openDataFile } from '../../../main/data/formats/index';
import { prepareDataset, releaseOptions } from '../../../main/data/pipeline';
import { sniffFile } from '../../../main/data/formats/sniff';
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
    assert.equal(await main(['data', 'generate', 'heat', '--preset', 'tiny', '--out', dir]), 2); // a usage error
  } finally { rmSync(dir, { recursive: true, force: true }); }
});

test('every generator\'s tiny output feeds the pipeline; the written airfoil folder loads like the generated arrays', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'lino-gen4-'));
  try {
    const expectShapes: Record<string, [number[], number[]]> = {
      burgers: [[64, 2], [64, 1]], 'navier-stokes': [[32, 32, 4], [32, 32, 1]], airfoil: [[221, 51, 4], [221, 51, 1]], darcy: [[29, 29, 3], [29, 29, 1]],
    };
    for (const b of ['burgers', 'navier-stokes', 'airfoil', 'darcy'] as const) {
      const gen = await generateDataset(b, { preset: 'tiny' }, {}, { workers: 0 });
      const N = Object.values(gen.variables)[0].shape[0];
      const opts = { ...releaseOptions(b, N), resolution: undefined, ...(b === 'navier-stokes' ? { ns: { tIn: 2, tOut: 1 } } : {}) };
      const ds = await prepareDataset({ kind: 'generated', dataset: gen }, opts);
      assert.deepEqual([...ds.train.x.shape].slice(1), expectShapes[b][0], b);
      assert.deepEqual([...ds.train.y.shape].slice(1), expectShapes[b][1], b);
      if (b === 'airfoil') {
        await writeGeneratedDataset(gen, join(dir, 'af'));
        assert.equal(sniffFile(join(dir, 'af')).format, 'geofno-airfoil');
        const fromFiles = await prepareDataset({ kind: 'file', path: join(dir, 'af') }, opts);
        assert.deepEqual(Array.from(fromFiles.train.y.data as Float32Array), Array.from(ds.train.y.data as Float32Array));
        assert.deepEqual(Array.from(fromFiles.val.x.data as Float32Array), Array.from(ds.val.x.data as Float32Array));
      }
    }
  } finally { rmSync(dir, { recursive: true, force: true }); }
});
