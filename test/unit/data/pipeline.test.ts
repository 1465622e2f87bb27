import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { linearPlan, resizeSpatial, stridePlan } from '../../../main/data/stages/resize';
import { makeSplit, seededPermutation } from '../../../main/data/stages/split';
import { scalarStats, encodeInPlace, NORM_EPS } from '../../../main/data/stages/normalize';
import { gridCoords } from '../../../main/data/stages/coords';
import { cutWindows, windowStarts } from '../../../main/data/stages/ns-windows';
import { prepareDataset, releaseOptions } from '../../../main/data/pipeline';
import { decodeValues, batches } from '../../../main/data/dataset';
import { DataError } from '../../../main/data/formats/errors';
import { openDataFile } from '../../../main/data/formats/index';
import { ndarray } from '../../../main/data/ndarray';
import { FIX, fix, expected } from '../../helpers/data-fixtures';

interface ResizeCase { kind: '1d' | '2d'; inShape: number[]; outShape: number[]; input: number[]; output: number[] }

test('resize matches torch.nn.functional.interpolate (align_corners=False), 1D linear and 2D bilinear, up and down', () => {
  const cases: ResizeCase[] = JSON.parse(readFileSync(fix('resize_reference.json'), 'utf8'));
  assert.equal(cases.length, 8);
  for (const c of cases) {
    const r = resizeSpatial(ndarray(Float64Array.from(c.input), c.inShape), c.outShape.slice(1));
    assert.deepEqual([...r.arr.shape], c.outShape);
    const got = r.arr.data as Float64Array;
    for (let i = 0; i < got.length; i++) assert.ok(Math.abs(got[i] - c.output[i]) < 1e-12, `${c.kind} ${c.inShape}->${c.outShape} [${i}]: ${got[i]} vs torch ${c.output[i]}`);
    const up = c.outShape.slice(1).some((o, k) => o > c.inShape[k + 1]);
    assert.equal(r.upsampled.length > 0, up);
  }
});

test('resize leaves trailing axes (NS frames) alone and striding picks FNO\'s points', () => {
  const a = ndarray(Float64Array.from({ length: 2 * 4 * 4 * 3 }, (_, i) => i), [2, 4, 4, 3]);
  const r = resizeSpatial(a, [2, 2]).arr;
  assert.deepEqual([...r.shape], [2, 2, 2, 3]);
  // frame t of the output equals the bilinear resize of frame t alone
  for (let t = 0; t < 3; t++) {
    const frame = Float64Array.from({ length: 32 }, (_, i) => (a.data as Float64Array)[i * 3 + t]);
    const rf = resizeSpatial(ndarray(frame, [2, 4, 4]), [2, 2]).arr.data as Float64Array;
    for (let i = 0; i < 8; i++) assert.equal((r.data as Float64Array)[i * 3 + t], rf[i]);
  }
  assert.deepEqual(Array.from(stridePlan(421, 85, 'r').i0.slice(0, 3)), [0, 5, 10]);
  assert.equal(stridePlan(421, 85, 'r').i0[84], 420);
  assert.equal(stridePlan(8192, 256, 'r').i0[1], 32);
  assert.throws(() => stridePlan(85, 421, 'r'), DataError);
  assert.equal(linearPlan(4, 4).w1.every((w) => w === 0), true);
});

test('split: seeded, disjoint, reproducible; explicit index lists; sizes checked', () => {
  const s1 = makeSplit(100, { train: 60, val: 30, test: 5, seed: 42 });
  const s2 = makeSplit(100, { train: 60, val: 30, test: 5, seed: 42 });
  assert.deepEqual(s1, s2);
  assert.notDeepEqual(makeSplit(100, { train: 60, val: 30, seed: 7 }).train, s1.train);
  const all = new Set([...s1.train, ...s1.val, ...s1.test]);
  assert.equal(all.size, 95);
  assert.deepEqual([...seededPermutation(50, 3)].sort((a, b) => a - b), Array.from({ length: 50 }, (_, i) => i));
  assert.deepEqual(makeSplit(10, { train: 3, val: 2, shuffle: false }), { train: [0, 1, 2], val: [3, 4], test: [] });
  assert.deepEqual(makeSplit(10, { indices: { train: [9, 1], val: [4] } }), { train: [9, 1], val: [4], test: [] });
  assert.throws(() => makeSplit(10, { train: 8, val: 3 }, 'f.mat'), (e: unknown) => e instanceof DataError && /f\.mat/.test(e.message) && /11 samples, the dataset has 10/.test(e.message));
  assert.throws(() => makeSplit(10, { indices: { train: [1, 2], val: [2] } }), (e: unknown) => e instanceof DataError && /index 2 is also in train/.test(e.message));
  assert.throws(() => makeSplit(10, { indices: { train: [10], val: [] } }), DataError);
});

test('normalizer: scalar mean and Bessel std over the training split match torch', () => {
  const e = expected.normalizer as unknown as { shape: number[]; values: number[]; trainIdx: number[]; mean: number; std: number };
  const per = 9;
  const train = e.trainIdx.map((i) => e.values.slice(i * per, (i + 1) * per));
  const s = scalarStats(train);
  assert.ok(Math.abs(s.mean - e.mean) < 1e-12);
  assert.ok(Math.abs(s.std - e.std) < 1e-12);
  const a = Float64Array.from(train.flat());
  encodeInPlace(a, s);
  assert.ok(Math.abs(a[0] - (train[0][0] - e.mean) / (e.std + 1e-5)) < 1e-12);
});

test('coordinate channels are linspace(0, 1) per axis with ij ordering', () => {
  const c = gridCoords([3, 2]);
  assert.deepEqual(Array.from(c), [0, 0, 0, 1, 0.5, 0, 0.5, 1, 1, 0, 1, 1]);
  assert.deepEqual(Array.from(gridCoords([5])), [0, 0.25, 0.5, 0.75, 1]);
});

test('Navier-Stokes windows: one per trajectory (release) or sliding', () => {
  assert.deepEqual(windowStarts(50, { tIn: 10, tOut: 10 }, false), [0]);
  assert.deepEqual(windowStarts(12, { tIn: 5, tOut: 4 }, true), [0, 1, 2, 3]);
  assert.deepEqual(windowStarts(30, { tIn: 10, tOut: 10, stride: 5 }, true), [0, 5, 10]);
  assert.throws(() => windowStarts(15, { tIn: 10, tOut: 10 }, false, 'ns.mat'), (e: unknown) => e instanceof DataError && /15 frames/.test(e.message));
  // 1 trajectory, 2 points, 6 frames: value = 10 * point + frame
  const traj = Float64Array.from({ length: 12 }, (_, i) => 10 * Math.floor(i / 6) + (i % 6));
  const w = cutWindows(traj, 1, 2, 6, [1], 2, 3);
  assert.deepEqual(Array.from(w.x), [1, 2, 11, 12]);
  assert.deepEqual(Array.from(w.y), [3, 4, 5, 13, 14, 15]);
});

test('pipeline: Darcy from a MAT v5 file: split, bilinear resize, normalizer from training only, coordinates', async () => {
  const ds = await prepareDataset({ kind: 'file', path: fix('darcy_v5.mat') }, { benchmark: 'darcy', split: { train: 3, val: 2, seed: 1 }, resolution: 5 });
  const m = ds.manifest;
  assert.deepEqual([...ds.train.x.shape], [3, 5, 5, 3]);
  assert.deepEqual([...ds.val.y.shape], [2, 5, 5, 1]);
  assert.deepEqual(m.xChannels, ['coeff', 'x', 'y']);
  assert.equal(m.coordChannels, 2);
  assert.equal(m.warnings.length, 0);
  // independent recomputation: resize the raw sample and normalize with the manifest's statistics
  const f = await openDataFile(fix('darcy_v5.mat'));
  const coeff = await f.read('coeff');
  const sol = await f.read('sol');
  f.close();
  const i = ds.val.indices[1];
  const one = (a: typeof coeff) => resizeSpatial(ndarray(Float64Array.from(a.data as ArrayLike<number>).slice(i * 81, (i + 1) * 81), [1, 9, 9]), [5, 5]).arr.data as Float64Array;
  const rc = one(coeff), rs = one(sol);
  for (let p = 0; p < 25; p++) {
    const xv = (ds.val.x.data as Float32Array)[(25 + p) * 3];
    assert.ok(Math.abs(xv - (rc[p] - m.normalization.x.mean) / (m.normalization.x.std + NORM_EPS)) < 1e-5);
    assert.ok(Math.abs(decodeValues(ds, [(ds.val.y.data as Float32Array)[25 + p]])[0] - rs[p]) < 1e-4);
  }
  // statistics come from the three training samples only
  const trainSol = Array.from(ds.train.indices).flatMap((k) => Array.from(resizeSpatial(ndarray(Float64Array.from(sol.data as ArrayLike<number>).slice(k * 81, (k + 1) * 81), [1, 9, 9]), [5, 5]).arr.data as Float64Array));
  const ref = scalarStats([trainSol]);
  assert.ok(Math.abs(ref.mean - m.normalization.y.mean) < 1e-9 && Math.abs(ref.std - m.normalization.y.std) < 1e-9);
  // coordinates: last two channels at grid point (i, j) are (i/4, j/4)
  assert.equal((ds.train.x.data as Float32Array)[(1 * 5 + 3) * 3 + 1], 0.25);
  assert.equal((ds.train.x.data as Float32Array)[(1 * 5 + 3) * 3 + 2], 0.75);
  let n = 0;
  for (const b of batches(ds.train, 2, 5)) n += b.x.shape[0];
  assert.equal(n, 3);
});

test('pipeline: upsampling warns; Burgers 1D with FNO striding; files read row by row give the same result', async () => {
  const warned: string[] = [];
  const up = await prepareDataset({ kind: 'file', path: fix('darcy_v5.mat') }, { benchmark: 'darcy', split: { train: 4, val: 1 }, resolution: 12 }, { onWarning: (w) => warned.push(w) });
  assert.equal(warned.length, 2);
  assert.match(up.manifest.warnings[0], /upsamples/);
  const b = await prepareDataset({ kind: 'file', path: fix('burgers_v5.mat') }, { benchmark: 'burgers', split: { train: 4, val: 2 }, resolution: 8, resizeMode: 'stride' });
  assert.deepEqual([...b.train.x.shape], [4, 8, 2]);
  const a = await (await openDataFile(fix('burgers_v5.mat'))).read('a');
  const k = b.train.indices[0];
  const s = b.manifest.normalization.x;
  for (let p = 0; p < 8; p++) {
    const raw = (a.data as Float64Array)[k * 32 + p * 4];
    assert.ok(Math.abs((b.train.x.data as Float32Array)[p * 2] - (raw - s.mean) / (s.std + NORM_EPS)) < 1e-5);
  }
  for (const [file, bench, opts] of [['ns_v73.mat', 'navier-stokes', { ns: { tIn: 5, tOut: 4 } }], ['darcy_v5.mat', 'darcy', {}], ['burgers_v5.mat', 'burgers', {}]] as const) {
    const o = { benchmark: bench, split: { train: 2, val: 1, seed: 9 }, ...opts };
    const eager = await prepareDataset({ kind: 'file', path: fix(file) }, o);
    const lazy = await prepareDataset({ kind: 'file', path: fix(file) }, o, { memoryBudgetBytes: 0 });
    assert.deepEqual(Array.from(lazy.val.x.data as Float32Array), Array.from(eager.val.x.data as Float32Array), file);
    assert.deepEqual(Array.from(lazy.train.y.data as Float32Array), Array.from(eager.train.y.data as Float32Array), file);
  }
});

test('pipeline: Navier-Stokes release windows and sliding windows from a v7.3 file', async () => {
  const e = expected['ns_v73.mat:u'];
  const ds = await prepareDataset({ kind: 'file', path: fix('ns_v73.mat') }, { benchmark: 'navier-stokes', split: { train: 2, val: 1, seed: 3 }, ns: { tIn: 5, tOut: 4, normalizer: 'shared' } });
  assert.deepEqual([...ds.train.x.shape], [2, 8, 8, 7]);
  assert.deepEqual([...ds.train.y.shape], [2, 8, 8, 4]);
  const s = ds.manifest.normalization;
  assert.equal(s.x.mean, s.y.mean, 'shared normalizer when asked');
  const traj = ds.val.indices[0];
  // x channel t at point p = u[traj, p, t]; y channel t = u[traj, p, 5 + t]
  for (const p of [0, 17, 63]) {
    for (let t = 0; t < 5; t++) assert.ok(Math.abs(decodeValues(ds, [(ds.val.x.data as Float32Array)[p * 7 + t]], 'x')[0] - e.values[(traj * 64 + p) * 12 + t]) < 1e-4);
    for (let t = 0; t < 4; t++) assert.ok(Math.abs(decodeValues(ds, [(ds.val.y.data as Float32Array)[p * 4 + t]])[0] - e.values[(traj * 64 + p) * 12 + 5 + t]) < 1e-4);
  }
  const sl = await prepareDataset({ kind: 'file', path: fix('ns_v73.mat') }, { benchmark: 'navier-stokes', split: { train: 2, val: 1, seed: 3 }, ns: { tIn: 5, tOut: 4, sliding: true } });
  assert.equal(sl.train.x.shape[0], 8, '2 trajectories x 4 windows');
  assert.equal(sl.val.x.shape[0], 1, 'validation keeps the release window');
  assert.deepEqual(Array.from(sl.train.windowStart!), [0, 1, 2, 3, 0, 1, 2, 3]);
  assert.notEqual(sl.manifest.normalization.x.mean, sl.manifest.normalization.y.mean, 'separate (the release\'s) by default');
});

test('pipeline: airfoil triple (unshuffled), PDEBench HDF5 with chosen paths, npz, in-memory arrays', async () => {
  const af = await prepareDataset({ kind: 'file', path: join(FIX, 'airfoil') }, releaseOptions('airfoil', 1));
  assert.deepEqual([...af.train.x.shape], [1, 221, 51, 4]);
  assert.deepEqual(af.manifest.xChannels, ['X', 'Y', 'xi', 'eta']);
  const ea = expected.airfoil as unknown as Record<string, number>;
  assert.ok(Math.abs(decodeValues(af, [(af.train.y.data as Float32Array)[10 * 51 + 20]])[0] - ea.mach_0_10_20) < 1e-4);
  const pde = await prepareDataset({ kind: 'file', path: fix('pdebench_darcy.h5'), input: ['nu'], target: 'tensor' }, { benchmark: 'darcy', split: { train: 3, val: 1 }, resolution: 8 });
  assert.deepEqual([...pde.train.y.shape], [3, 8, 8, 1]);
  const npz = await prepareDataset({ kind: 'file', path: fix('deflated.npz'), input: ['a'], target: 'u' }, { benchmark: 'burgers', split: { train: 2, val: 1 } });
  assert.deepEqual([...npz.val.x.shape], [1, 5, 2]);
  const gen = await prepareDataset({ kind: 'arrays', name: 'mem', variables: {
    NACA_Cylinder_X: ndarray(Float32Array.from({ length: 2 * 6 * 4 }, (_, i) => i), [2, 6, 4]),
    NACA_Cylinder_Y: ndarray(Float32Array.from({ length: 2 * 6 * 4 }, (_, i) => -i), [2, 6, 4]),
    NACA_Cylinder_Q: ndarray(Float32Array.from({ length: 2 * 5 * 6 * 4 }, (_, i) => i % 7), [2, 5, 6, 4]),
  } }, { benchmark: 'airfoil', split: { train: 2, val: 0, shuffle: false } });
  assert.deepEqual([...gen.train.y.shape], [2, 6, 4, 1]);
  assert.equal(decodeValues(gen, [(gen.train.y.data as Float32Array)[0]])[0], (4 * 24) % 7);
});

test('pipeline: NaN/Inf, missing keys, mismatched shapes and oversized splits are DataErrors naming file and variable', async () => {
  const a = Float64Array.from({ length: 4 * 8 }, (_, i) => i);
  const bad = a.slice(); bad[2 * 8 + 3] = NaN;
  await assert.rejects(prepareDataset({ kind: 'arrays', name: 'mem.mat', variables: { a: ndarray(a, [4, 8]), u: ndarray(bad, [4, 8]) } }, { benchmark: 'burgers', split: { train: 4, val: 0 } }),
    (e: unknown) => e instanceof DataError && e.file === 'mem.mat' && e.field === 'u' && /sample 2/.test(e.message) && /NaN/.test(e.message));
  const inf = a.slice(); inf[0] = Infinity;
  await assert.rejects(prepareDataset({ kind: 'arrays', name: 'mem.mat', variables: { a: ndarray(inf, [4, 8]), u: ndarray(a, [4, 8]) } }, { benchmark: 'burgers', split: { train: 2, val: 1 } }),
    (e: unknown) => e instanceof DataError && e.field === 'a' && /Infinity/.test(e.message));
  await assert.rejects(prepareDataset({ kind: 'arrays', name: 'mem.mat', variables: { a: ndarray(a, [4, 8]), u: ndarray(new Float64Array(36), [4, 9]) } }, { benchmark: 'burgers', split: { train: 2, val: 1 } }),
    (e: unknown) => e instanceof DataError && e.field === 'a' && /does not match target 'u'/.test(e.message));
  await assert.rejects(prepareDataset({ kind: 'file', path: fix('darcy_v5.mat') }, { benchmark: 'darcy', split: { train: 5, val: 1 } }),
    (e: unknown) => e instanceof DataError && /darcy_v5\.mat/.test(e.message) && /the dataset has 5/.test(e.message));
  await assert.rejects(prepareDataset({ kind: 'file', path: fix('darcy_v5.mat') }, { benchmark: 'burgers', split: { train: 2, val: 1 } }),
    (e: unknown) => e instanceof DataError && e.field === 'a' && /'coeff', 'sol'/.test(e.message));
  await assert.rejects(prepareDataset({ kind: 'file', path: fix('burgers_v5.mat') }, { benchmark: 'darcy', split: { train: 2, val: 1 }, }),
    (e: unknown) => e instanceof DataError && /coeff/.test(e.message));
});
