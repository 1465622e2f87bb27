import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse as npyjsParse } from 'npyjs';
import { inspectDataFile, openDataFile } from '../../../main/data/formats/index';
import { DataError } from '../../../main/data/formats/errors';
import { sniffFile } from '../../../main/data/formats/sniff';
import { NpyFile, writeNpy, encodeNpyHeader } from '../../../main/data/formats/npy';
import { writeMat73 } from '../../../main/data/formats/mat73';
import { fortranToC, cToFortran } from '../../../main/data/formats/bytes';
import { guard, h5lib } from '../../../main/data/formats/h5';
import type { Hdf5File } from '../../../main/data/formats/hdf5';
import { ndarray, type NdArray } from '../../../main/data/ndarray';
import { FIX, fix, expected, assertMatches } from '../../helpers/data-fixtures';

async function readVar(file: string, name: string): Promise<NdArray> {
  const f = await openDataFile(fix(file));
  try { return await f.read(name); } finally { f.close(); }
}

test('sniff detects every fixture format from its bytes', () => {
  const cases: Array<[string, string]> = [
    ['npy/f8_le_C.npy', 'npy'], ['stored.npz', 'npz'], ['deflated.npz', 'npz'], ['v5_plain.mat', 'mat5'], ['v5_compressed.mat', 'mat5'],
    ['v5_hand_be_raw.mat', 'mat5'], ['v73.mat', 'mat73'], ['pdebench_darcy.h5', 'hdf5'], ['airfoil', 'geofno-airfoil'],
  ];
  for (const [f, fmt] of cases) assert.equal(sniffFile(fix(f)).format, fmt, f);
  assert.equal(sniffFile(fix('v5_hand_be_raw.mat')).bigEndian, true);
  assert.equal(sniffFile(fix('v73_noheader.mat')).format, 'hdf5', 'no MATLAB header: HDF5 by its bytes (openDataFile then sees MATLAB_class)');
  const dir = mkdtempSync(join(tmpdir(), 'lino-sniff-'));
  try {
    writeFileSync(join(dir, 'junk.mat'), 'hello world, not a mat file at all');
    assert.throws(() => sniffFile(join(dir, 'junk.mat')), (e: unknown) => e instanceof DataError && /junk\.mat/.test(e.message) && /expected/.test(e.message));
  } finally { rmSync(dir, { recursive: true, force: true }); }
});

test('.npy: f4 f8 i4 i8, little and big endian, C and Fortran order, against numpy', async () => {
  let n = 0;
  for (const code of ['f4', 'f8', 'i4', 'i8']) for (const bo of ['le', 'be']) for (const order of ['C', 'F']) {
    const name = `npy/${code}_${bo}_${order}.npy`;
    assertMatches(await readVar(name, `${code}_${bo}_${order}`), expected[name], name);
    n++;
  }
  assert.equal(n, 16);
  assertMatches(await readVar('npy/vector_f8.npy', 'vector_f8'), expected['npy/vector_f8.npy'], 'vector');
  assertMatches(await readVar('npy/scalar_f4.npy', 'scalar_f4'), expected['npy/scalar_f4.npy'], 'scalar');
});

test('.npy: agrees with npyjs on little-endian C-order files', async () => {
  for (const code of ['f4', 'f8', 'i4']) {
    const bytes = readFileSync(fix(`npy/${code}_le_C.npy`));
    const ref = npyjsParse(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength));
    const ours = await readVar(`npy/${code}_le_C.npy`, `${code}_le_C`);
    assert.deepEqual([...ours.shape], ref.shape);
    assert.deepEqual(Array.from(ours.data as Float64Array), Array.from(ref.data as Float64Array));
  }
});

test('.npy: rows read by offset equal the same rows of a full read (C and Fortran order)', async () => {
  for (const name of ['f8_le_C', 'f8_be_F', 'i8_le_F', 'f4_be_C']) {
    const f = new NpyFile(fix(`npy/${name}.npy`), name);
    const all = await f.read(name);
    const rows = await f.readRows(name, 1, 1);
    f.close();
    assert.deepEqual([...rows.shape], [1, 3, 4]);
    assert.deepEqual(Array.from(rows.data as ArrayLike<number | bigint>), Array.from(all.data as ArrayLike<number | bigint>).slice(12, 24));
  }
});

test('.npz: stored and deflated archives list and read every member', async () => {
  for (const file of ['stored.npz', 'deflated.npz']) {
    const f = await openDataFile(fix(file));
    const vars = f.variables();
    assert.deepEqual(vars.map((v) => v.name).sort(), ['a', 'idx', 'u']);
    assert.deepEqual(vars.find((v) => v.name === 'u')!.shape, [3, 5]);
    for (const k of ['a', 'u', 'idx']) assertMatches(await f.read(k), expected[`${file}:${k}`], `${file}:${k}`);
    const rows = await f.readRows('a', 1, 2);
    assert.deepEqual(Array.from(rows.data as Float64Array), expected[`${file}:a`].values.slice(5, 15));
    await assert.rejects(f.read('nope'), (e: unknown) => e instanceof DataError && /nope/.test(e.message) && /'a'/.test(e.message));
    f.close();
  }
});

test('MAT v5: scipy files, compressed and not, every rank and class', async () => {
  for (const file of ['v5_plain.mat', 'v5_compressed.mat']) {
    const f = await openDataFile(fix(file));
    assert.equal(f.format, 'mat5');
    const vars = f.variables();
    const label = vars.find((v) => v.name === 'label');
    assert.ok(label?.unsupported, 'char variable is listed as unsupported');
    for (const k of ['d3', 's2', 'i32', 'i64', 'd4', 'vec']) assertMatches(await f.read(k), expected[`${file}:${k}`], `${file}:${k}`);
    await assert.rejects(f.read('label'), (e: unknown) => e instanceof DataError && /label/.test(e.message) && /char/.test(e.message));
    const rows = await f.readRows('d3', 1, 1);
    assert.deepEqual(Array.from(rows.data as Float64Array), expected[`${file}:d3`].values.slice(12, 24));
    f.close();
  }
  for (const [file, keys] of [['burgers_v5.mat', ['a', 'u']], ['darcy_v5.mat', ['coeff', 'sol']]] as const) {
    for (const k of keys) assertMatches(await readVar(file, k), expected[`${file}:${k}`], `${file}:${k}`);
  }
});

test('MAT v5: variables larger than the 64 KiB header window, plain and compressed', async () => {
  const f = await openDataFile(fix('v5_large.mat'));
  assertMatches(await f.read('big'), expected['v5_large.mat:big'], 'big');
  const r = await f.readRows('big', 2, 1);
  assert.deepEqual(Array.from(r.data as Float64Array), expected['v5_large.mat:big'].values.slice(2 * 4900));
  f.close();
  const z = await openDataFile(fix('v5_large_z.mat'));
  assert.deepEqual(z.variables().map((v) => v.name), ['rep', 'after']);
  assertMatches(await z.read('rep'), expected['v5_large_z.mat:rep'], 'rep');
  assertMatches(await z.read('after'), expected['v5_large_z.mat:after'], 'after');
  z.close();
});

test('MAT v5: big-endian files and doubles stored as uint8/int16 (MATLAB style), checked by scipy.loadmat', async () => {
  for (const bo of ['be', 'le']) for (const z of ['raw', 'z']) {
    const file = `v5_hand_${bo}_${z}.mat`;
    const f = await openDataFile(fix(file));
    for (const k of ['d3', 's2', 'i32', 'small', 'neg']) assertMatches(await f.read(k), expected[`${file}:${k}`], `${file}:${k}`);
    if (z === 'raw') {
      const r = await f.readRows('neg', 1, 2);
      assert.deepEqual(Array.from(r.data as Float64Array), [1000, -7, 5, 0]);
    }
    f.close();
  }
});

test('inspectDataFile lists variables without loading them', async () => {
  const info = await inspectDataFile(fix('darcy_v5.mat'));
  assert.equal(info.format, 'mat5');
  assert.deepEqual(info.variables.map((v) => [v.name, v.shape, v.dtype, v.bytes]), [['coeff', [5, 9, 9], 'float64', 3240], ['sol', [5, 9, 9], 'float32', 1620]]);
});

test('MAT v7.3: axes reversed back to MATLAB order; rows read as hyperslabs', async () => {
  const f = await openDataFile(fix('v73.mat'));
  assert.equal(f.format, 'mat73');
  assert.deepEqual(f.variables().find((v) => v.name === 'd3')!.shape, [2, 3, 4]);
  for (const k of ['d3', 's2', 'i32', 'd4']) assertMatches(await f.read(k), expected[`v73.mat:${k}`], `v73.mat:${k}`);
  const rows = await f.readRows('d4', 1, 1);
  assert.deepEqual([...rows.shape], [1, 2, 3, 2]);
  assert.deepEqual(Array.from(rows.data as Float64Array), expected['v73.mat:d4'].values.slice(12, 24));
  f.close();
  const nh = await openDataFile(fix('v73_noheader.mat'));
  assert.equal(nh.format, 'mat73', 'MATLAB_class attributes without the header still mean MATLAB axis order');
  assertMatches(await nh.read('d3'), expected['v73_noheader.mat:d3'], 'no-header d3');
  nh.close();
  const ns = await openDataFile(fix('ns_v73.mat'));
  assertMatches(await ns.read('u'), expected['ns_v73.mat:u'], 'ns u');
  const r = await ns.readRows('u', 2, 1);
  assert.deepEqual(Array.from(r.data as Float32Array), expected['ns_v73.mat:u'].values.slice(2 * 768, 3 * 768));
  ns.close();
});

test('HDF5 (PDEBench style): datasets in groups, chunked+gzip, hyperslab rows', async () => {
  const f = await openDataFile(fix('pdebench_darcy.h5'));
  assert.equal(f.format, 'hdf5');
  const names = f.variables().map((v) => v.name).sort();
  assert.deepEqual(names, ['0000/data', 'nu', 'tensor', 'x-coordinate', 'y-coordinate']);
  for (const k of ['nu', 'tensor', 'x-coordinate', '0000/data']) assertMatches(await f.read(k), expected[`pdebench_darcy.h5:${k}`], k);
  const rows = await f.readRows('tensor', 2, 2);
  assert.deepEqual([...rows.shape], [2, 1, 16, 16]);
  assert.deepEqual(Array.from(rows.data as Float32Array), expected['pdebench_darcy.h5:tensor'].values.slice(512, 1024));
  const slab = await (f as Hdf5File).readSlab('tensor', [[1, 3], null, [4, 6], [0, 2]]);
  assert.deepEqual([...slab.shape], [2, 1, 2, 2]);
  const t = expected['pdebench_darcy.h5:tensor'].values;
  assert.deepEqual(Array.from(slab.data as Float32Array), [t[256 + 64], t[256 + 65], t[256 + 80], t[256 + 81], t[512 + 64], t[512 + 65], t[512 + 80], t[512 + 81]]);
  await assert.rejects((f as Hdf5File).readSlab('tensor', [[0, 5], null, null, null]), (e: unknown) => e instanceof DataError && /range 0\.\.5 on axis 0/.test(e.message));
  await assert.rejects(f.read('missing'), (e: unknown) => e instanceof DataError && /pdebench_darcy\.h5/.test(e.message) && /missing/.test(e.message));
  f.close();
});

test('HDF5: a group that contains itself is listed once, not walked forever', async () => {
  const f = await openDataFile(fix('cyclic.h5'));
  assert.deepEqual(f.variables().map((v) => v.name), ['g/a']);
  assert.deepEqual(Array.from((await f.read('g/a')).data as Float64Array), [0, 1, 2]);
  f.close();
});

test('Geo-FNO airfoil triple: X, Y, Q and Mach = channel 4 of Q', async () => {
  const f = await openDataFile(join(FIX, 'airfoil'));
  const e = expected.airfoil as unknown as Record<string, number>;
  const vars = f.variables();
  assert.deepEqual(vars.map((v) => v.name), ['X', 'Y', 'Q', 'mach']);
  assert.deepEqual(vars[3].shape, [1, 221, 51]);
  const sum = (a: NdArray) => Array.from(a.data as Float32Array).reduce((s, v) => s + v, 0);
  const X = await f.read('X');
  const mach = await f.read('mach');
  assert.ok(Math.abs(sum(X) - e.X_sum) < 1e-6 * Math.max(1, Math.abs(e.X_sum)) + 1e-3);
  assert.ok(Math.abs(sum(mach) - e.mach_sum) < 1e-6 * Math.abs(e.mach_sum) + 1e-3);
  assert.equal((mach.data as Float32Array)[10 * 51 + 20], e.mach_0_10_20);
  assert.equal((X.data as Float32Array)[10 * 51 + 20], e.X_0_10_20);
  f.close();
});

test('column-major <-> row-major transposition is exact for ranks 1..5', () => {
  for (const shape of [[7], [3, 4], [2, 3, 4], [40, 3, 37], [2, 3, 1, 4, 5]]) {
    const n = shape.reduce((a, b) => a * b, 1);
    const c = Float64Array.from({ length: n }, (_, i) => i);
    const f = cToFortran(c, shape);
    // element at multi-index (i0..ik) lives at sum i_k * prod(shape[0..k-1]) in Fortran order
    const idx = new Array(shape.length).fill(0);
    for (let lin = 0; lin < n; lin++) {
      let fo = 0, st = 1;
      for (let k = 0; k < shape.length; k++) { fo += idx[k] * st; st *= shape[k]; }
      if (f[fo] !== lin) assert.fail(`shape ${shape}: C element ${lin} landed at ${fo}`);
      for (let k = shape.length - 1; k >= 0; k--) { if (++idx[k] < shape[k]) break; idx[k] = 0; }
    }
    assert.deepEqual(Array.from(fortranToC(f, shape)), Array.from(c));
  }
  // pieces along the last axis transposed straight into place (how MAT v7.3 reads large arrays)
  const shape = [5, 3, 7];
  const c = Float64Array.from({ length: 105 }, (_, i) => i);
  const out = new Float64Array(105);
  for (const [l0, l1] of [[0, 3], [3, 7]]) {
    const piece = [...shape.slice(0, -1), l1 - l0];
    const pc = new Float64Array(15 * (l1 - l0));
    for (let r = 0; r < 15; r++) for (let l = l0; l < l1; l++) pc[r * (l1 - l0) + l - l0] = c[r * 7 + l];
    fortranToC(cToFortran(pc, piece), piece, { out, lastSize: 7, lastOffset: l0 });
  }
  assert.deepEqual(Array.from(out), Array.from(c));
});

test('writers: .npy and MAT v7.3 round-trip through our readers', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'lino-write-'));
  try {
    const arrs: Record<string, NdArray> = {
      a: ndarray(Float32Array.from({ length: 60 }, (_, i) => i * 0.25 - 3), [3, 4, 5]),
      b: ndarray(Float64Array.from({ length: 12 }, (_, i) => Math.sin(i)), [12]),
      c: ndarray(Int32Array.from({ length: 6 }, (_, i) => i - 2), [2, 3]),
      d: ndarray(BigInt64Array.from({ length: 4 }, (_, i) => BigInt(i * 1000)), [2, 2]),
    };
    for (const [k, v] of Object.entries(arrs)) {
      writeNpy(join(dir, `${k}.npy`), v);
      const back = await (await openDataFile(join(dir, `${k}.npy`))).read(k);
      assert.deepEqual([...back.shape], [...v.shape]);
      assert.equal(back.dtype, v.dtype);
      assert.deepEqual(Array.from(back.data as ArrayLike<number>), Array.from(v.data as ArrayLike<number>));
    }
    await writeMat73(join(dir, 'out.mat'), arrs);
    assert.equal(sniffFile(join(dir, 'out.mat')).format, 'mat73');
    const m = await openDataFile(join(dir, 'out.mat'));
    for (const [k, v] of Object.entries(arrs)) {
      const back = await m.read(k);
      assert.deepEqual([...back.shape], v.shape.length === 1 ? [1, v.shape[0]] : [...v.shape], k);
      assert.deepEqual(Array.from(back.data as ArrayLike<number>), Array.from(v.data as ArrayLike<number>), k);
    }
    m.close();
  } finally { rmSync(dir, { recursive: true, force: true }); }
});

test('bad input: truncated, wrong magic, unsupported dtype, absurd header sizes all give DataErrors naming the file', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'lino-bad-'));
  try {
    const good = readFileSync(fix('npy/f8_le_C.npy'));
    writeFileSync(join(dir, 'trunc.npy'), good.subarray(0, good.length - 9));
    await assert.rejects(openDataFile(join(dir, 'trunc.npy')), (e: unknown) => e instanceof DataError && e.file.endsWith('trunc.npy') && /truncated/.test(e.message));
    const hdr = encodeNpyHeader([2], 'float64');
    const cplx = Buffer.from(new TextDecoder('latin1').decode(hdr).replace("'<f8'", "'<c8'"), 'latin1');
    writeFileSync(join(dir, 'cplx.npy'), Buffer.concat([cplx, Buffer.alloc(16)]));
    await assert.rejects(openDataFile(join(dir, 'cplx.npy')), (e: unknown) => e instanceof DataError && /unsupported dtype '<c8'/.test(e.message) && /f4, f8, i4, i8/.test(e.message));
    const huge = Buffer.from(new TextDecoder('latin1').decode(encodeNpyHeader([10, 10], 'float64')).replace('(10, 10)', '(99999, 99999999)'), 'latin1');
    writeFileSync(join(dir, 'huge.npy'), Buffer.concat([huge, Buffer.alloc(64)]));
    await assert.rejects(openDataFile(join(dir, 'huge.npy')), (e: unknown) => e instanceof DataError && /needs \d+ data bytes/.test(e.message));
    const mat = readFileSync(fix('darcy_v5.mat'));
    writeFileSync(join(dir, 'trunc.mat'), mat.subarray(0, 3000));
    await assert.rejects(openDataFile(join(dir, 'trunc.mat')), (e: unknown) => e instanceof DataError && e.file.endsWith('trunc.mat'));
    const h5 = readFileSync(fix('v73.mat'));
    writeFileSync(join(dir, 'trunc73.mat'), h5.subarray(0, 1500));
    await assert.rejects(async () => { const f = await openDataFile(join(dir, 'trunc73.mat')); try { await f.read('d3'); } finally { f.close(); } },
      (e: unknown) => e instanceof DataError && e.file.endsWith('trunc73.mat'));
    writeFileSync(join(dir, 'bad.npz'), Buffer.concat([Buffer.from('PK\x03\x04'), Buffer.alloc(40)]));
    await assert.rejects(openDataFile(join(dir, 'bad.npz')), (e: unknown) => e instanceof DataError && /central-directory/.test(e.message));
  } finally { rmSync(dir, { recursive: true, force: true }); }
});

test('HDF5: a wasm abort retires the h5wasm instance and the next file opens with a fresh one', async () => {
  const before = await h5lib();
  // the abort itself cannot be provoked on demand (the fuzz run meets one after thousands of
  // corrupt files); what follows it is real: guard's handling, the reload, reading with the new copy
  assert.throws(() => guard('x.h5', 'u', 'read', () => { throw new Error('Aborted(native code called abort())'); }),
    (e: unknown) => e instanceof DataError && /aborted on this file/.test(e.message));
  const after = await h5lib();
  assert.notEqual(after, before, 'a fresh instance');
  const f = await openDataFile(fix('v73.mat'));
  assertMatches(await f.read('d3'), expected['v73.mat:d3'], 'd3 after reload');
  f.close();
});
