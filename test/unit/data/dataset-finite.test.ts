// Hardening III, repro 7 (the store's side): every value written into a dataset is finite in
// float32, or the write is refused naming the file and the field before anything is on disk, so a
// dataset's statistics (datasets.stats) are numbers, never null.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatasetStore } from '../../../main/data/dataset-store';
import { DataError } from '../../../main/data/formats/errors';
import { statsOf } from '../../../main/data/dataset-stats';
import { fix } from '../../helpers/data-fixtures';

test('a dataset with a value that is not finite in float32, in an array or its normalization, is refused naming the file and field; nothing is written', async () => {
  const ws = mkdtempSync(join(tmpdir(), 'lino-ws-'));
  try {
    const store = new DatasetStore(ws);
    const { dataset } = await store.prepare({ kind: 'file', path: fix('darcy_v5.mat') }, { benchmark: 'darcy', split: { train: 3, val: 2, seed: 4 }, resolution: 5 });
    for (const s of [statsOf(dataset, 'val')]) for (const c of [...s.x, ...s.y]) for (const v of [c.min, c.max, c.mean, c.std]) assert.equal(typeof v, 'number');
    const id = 'copy';
    const bad = { ...dataset, manifest: { ...dataset.manifest, id }, val: { ...dataset.val, y: { ...dataset.val.y, data: Float32Array.from(dataset.val.y.data as Float32Array) } } };
    (bad.val.y.data as Float32Array)[3] = Infinity; // what 1e308 becomes in float32
    assert.throws(() => store.save(bad), (e: unknown) => e instanceof DataError && e.field === 'val_y' && e.file === join(ws, 'datasets', id, 'val_y.npy') && /value 3 \(of \d+\) is Infinity, not finite in float32/.test((e as Error).message));
    assert.equal(existsSync(join(ws, 'datasets', id)), false, 'nothing written');
    const badNorm = { ...dataset, manifest: { ...dataset.manifest, id, normalization: { ...dataset.manifest.normalization, x: { ...dataset.manifest.normalization.x, max: Infinity } } } };
    assert.throws(() => store.save(badNorm), (e: unknown) => e instanceof DataError && e.field === 'normalization.x.max');
    assert.equal(existsSync(join(ws, 'datasets', id)), false, 'nothing written');
  } finally {
    rmSync(ws, { recursive: true, force: true });
  }
});
