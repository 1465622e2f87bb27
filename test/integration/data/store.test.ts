import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatasetStore } from '../../../main/data/dataset-store';
import { exportDataset } from '../../../main/data/export';
import { openDataFile } from '../../../main/data/formats/index';
import { DataError } from '../../../main/data/formats/errors';
import { resizeSpatial } from '../../../main/data/stages/resize';
import { ndarray } from '../../../main/data/ndarray';
import { ROOT, fix, havePython, NO_PYTHON, runFixtureTool } from '../../helpers/data-fixtures';
import { main } from '../../../main/cli/lino';

const opts = { benchmark: 'darcy' as const, split: { train: 3, val: 2, seed: 4 }, resolution: 5 };

test('dataset store: prepared once, manifest with source/parameters/statistics/hash, reopened from cache, tampering detected', async () => {
  const ws = mkdtempSync(join(tmpdir(), 'lino-ws-'));
  try {
    const store = new DatasetStore(ws);
    const first = await store.prepare({ kind: 'file', path: fix('darcy_v5.mat') }, opts);
    assert.equal(first.cached, false);
    const id = first.dataset.manifest.id;
    const dir = join(ws, 'datasets', id);
    const files = readdirSync(dir).sort();
    assert.ok(files.includes('manifest.json') && files.includes('train_x.npy') && files.includes('val_indices.npy'));
    assert.ok(!files.some((f) => f.endsWith('.tmp')), 'no temp files left');
    const m = JSON.parse(readFileSync(join(dir, 'manifest.json'), 'utf8'));
    assert.equal(m.source.kind, 'file');
    assert.match(m.source.path, /darcy_v5\.mat$/);
    assert.equal(m.source.format, 'mat5');
    assert.deepEqual(m.parameters.resolution, [5, 5]);
    assert.equal(typeof m.normalization.y.std, 'number');
    assert.match(m.contentHash, /^[0-9a-f]{64}$/);
    const again = await store.prepare({ kind: 'file', path: fix('darcy_v5.mat') }, opts);
    assert.equal(again.cached, true);
    assert.deepEqual(Array.from(again.dataset.train.x.data as Float32Array), Array.from(first.dataset.train.x.data as Float32Array));
    assert.deepEqual(Array.from(again.dataset.val.indices), Array.from(first.dataset.val.indices));
    assert.equal((await store.prepare({ kind: 'file', path: fix('darcy_v5.mat') }, { ...opts, resolution: 7 })).cached, false, 'other parameters, other dataset');
    assert.equal(store.list().length, 2);
    await store.open(id, { verify: true });
    // lazy access reads the same rows by offset
    const lazy = store.openLazy(id);
    assert.equal(lazy.val.rows, 2);
    const b = await lazy.train.read(1, 2);
    assert.deepEqual([...b.x.shape], [2, 5, 5, 3]);
    assert.deepEqual(Array.from(b.x.data as Float32Array), Array.from(first.dataset.train.x.data as Float32Array).slice(75, 225));
    assert.deepEqual(Array.from(b.y.data as Float32Array), Array.from(first.dataset.train.y.data as Float32Array).slice(25, 75));
    lazy.close();
    const p = join(dir, 'train_y.npy');
    const bytes = readFileSync(p);
    bytes[bytes.length - 3] ^= 0x40;
    writeFileSync(p, bytes);
    await assert.rejects(store.open(id, { verify: true }), (e: unknown) => e instanceof DataError && /content hash/.test(e.message));
  } finally { rmSync(ws, { recursive: true, force: true }); }
});

test('export: raw layout holds decoded fields in FNO names (npy and MAT v7.3); prepared layout holds the model arrays', async () => {
  const ws = mkdtempSync(join(tmpdir(), 'lino-exp-'));
  try {
    const { dataset: ds } = await new DatasetStore(ws).prepare({ kind: 'file', path: fix('darcy_v5.mat') }, opts);
    const files = await exportDataset(ds, 'npy', join(ws, 'npy'));
    assert.ok(files.some((f) => f.endsWith('coeff.npy')) && files.some((f) => f.endsWith('sol.npy')));
    const sol = await (await openDataFile(join(ws, 'npy', 'sol.npy'))).read('sol');
    assert.deepEqual([...sol.shape], [5, 5, 5]);
    // row 0 of the export is training sample indices[0]: compare with the source resized independently
    const src = await (await openDataFile(fix('darcy_v5.mat'))).read('sol');
    const k = ds.train.indices[0];
    const ref = resizeSpatial(ndarray(Float64Array.from(src.data as Float32Array).slice(k * 81, (k + 1) * 81), [1, 9, 9]), [5, 5]).arr.data as Float64Array;
    for (let p = 0; p < 25; p++) assert.ok(Math.abs((sol.data as Float32Array)[p] - ref[p]) < 1e-4);
    const mf = await exportDataset(ds, 'mat73', join(ws, 'mat'));
    const mat = await openDataFile(mf[0]);
    assert.equal(mat.format, 'mat73');
    assert.deepEqual(mat.variables().map((v) => v.name).sort(), ['coeff', 'sol', 'test_indices', 'train_indices', 'val_indices']);
    assert.deepEqual(Array.from((await mat.read('sol')).data as Float32Array), Array.from(sol.data as Float32Array));
    mat.close();
    const prep = await exportDataset(ds, 'npy', join(ws, 'prep'), 'prepared');
    assert.ok(prep.some((f) => f.endsWith('train_x.npy')) && prep.some((f) => f.endsWith('y_std.npy')));
    if (havePython()) {
      const v = runFixtureTool(['verify-mat73', mf[0]]) as { version: number[]; vars: Record<string, { shape: number[]; cls: string }> };
      assert.deepEqual(v.version, [2, 0]);
      assert.deepEqual(v.vars.coeff.shape, [5, 5, 5]);
      assert.equal(v.vars.train_indices.cls, 'int32');
    }
  } finally { rmSync(ws, { recursive: true, force: true }); }
});

test('lino data inspect and lino data export on the command line', async () => {
  const ws = mkdtempSync(join(tmpdir(), 'lino-cli-'));
  try {
    // the real binary once (start-up through tsx), then the dispatcher in-process
    const ins = spawnSync(process.execPath, [join(ROOT, 'bin/lino.mjs'), 'data', 'inspect', fix('v73.mat')], { encoding: 'utf8', cwd: ws });
    assert.equal(ins.status, 0, ins.stderr);
    assert.match(ins.stdout, /mat73, 4 variables/);
    assert.match(ins.stdout, /d3\s+\[2, 3, 4\]\s+float64/);
    assert.equal(await main(['data', 'inspect', join(ROOT, 'package.json')]), 1);
    const { dataset } = await new DatasetStore(ws).prepare({ kind: 'file', path: fix('burgers_v5.mat') }, { benchmark: 'burgers', split: { train: 4, val: 2 } });
    assert.equal(await main(['data', 'export', dataset.manifest.id, '--workspace', ws, '--format', 'npy', '--out', join(ws, 'out')]), 0);
    assert.ok(existsSync(join(ws, 'out', 'a.npy')) && existsSync(join(ws, 'out', 'u.npy')));
    assert.equal(await main(['data', 'export', join(ws, 'datasets', dataset.manifest.id), '--format', 'mat73', '--out', join(ws, 'out2')]), 0);
    assert.ok(existsSync(join(ws, 'out2', `${dataset.manifest.id}.mat`)));
    assert.equal(await main(['data', 'export', 'no-such-dataset', '--workspace', ws, '--format', 'npy', '--out', join(ws, 'out3')]), 1);
    assert.equal(await main(['data', 'inspect', join(ws, 'datasets', dataset.manifest.id)]), 0);
  } finally { rmSync(ws, { recursive: true, force: true }); }
});

test('export: scipy/h5py read the exported MAT v7.3 as MATLAB would', { skip: havePython() ? false : NO_PYTHON }, async () => {
  const ws = mkdtempSync(join(tmpdir(), 'lino-exp-py-'));
  try {
    const { dataset } = await new DatasetStore(ws).prepare({ kind: 'file', path: fix('ns_v73.mat') }, { benchmark: 'navier-stokes', split: { train: 2, val: 1 }, ns: { tIn: 5, tOut: 4 } });
    const [mat] = await exportDataset(dataset, 'mat73', join(ws, 'o'));
    const v = runFixtureTool(['verify-mat73', mat]) as { version: number[]; vars: Record<string, { shape: number[]; cls: string; first: number[] }> };
    assert.deepEqual(v.version, [2, 0]);
    assert.deepEqual(v.vars.u.shape, [3, 8, 8, 9]);
    assert.equal(v.vars.u.cls, 'single');
  } finally { rmSync(ws, { recursive: true, force: true }); }
});
