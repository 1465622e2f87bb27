// PDEBench layouts through the pipeline, with files written by h5py: the committed fixtures
// (test/fixtures/data/pdebench, made by make_fixtures.py) always, and files written afresh by
// h5py when /usr/bin/python3 has it. Fixture values encode their indices:
// sample + 0.1 * t + 0.01 * x (+ 0.001 * y) (+ a per-variable offset).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { prepareDataset } from '../../../main/data/pipeline';
import { openDataFile } from '../../../main/data/formats/index';
import { groupVariables, layoutHints } from '../../../main/data/stages/layout';
import type { PipelineOptions } from '../../../main/data/dataset';

const COMMITTED = join(import.meta.dirname, '..', '..', 'fixtures', 'data', 'pdebench');
const SCRIPT = join(COMMITTED, 'make_fixtures.py');

function h5pyMissing(): string | false {
  const r = spawnSync('/usr/bin/python3', ['-c', 'import h5py'], { encoding: 'utf8' });
  return r.status === 0 ? false : `h5py is not installed for /usr/bin/python3 (apt-get install python3-h5py, or node scripts/setup.mjs --test-deps): ${(r.stderr || r.error?.message || '').trim().split('\n').pop()}`;
}

const raw = (benchmark: PipelineOptions['benchmark'], train: number, val: number): PipelineOptions =>
  ({ benchmark, split: { train, val, shuffle: false }, normalize: false, coords: false });
const close = (a: number, b: number) => Math.abs(a - b) < 1e-4;

function layouts(dir: string, label: string) {
  test(`${label}: 1D time series tensor [N, T, X]: input = target without a time split is refused as an identity task`, async () => {
    await assert.rejects(
      prepareDataset({ kind: 'file', path: join(dir, '1d_time.h5'), input: ['tensor'], target: 'tensor' }, raw('custom', 4, 2)),
      /'tensor' is both input and target: an identity task.*time split/,
    );
  });

  test(`${label}: 1D time series, operator mode t = 3 -> t = 20 on time axis 1`, async () => {
    const ds = await prepareDataset(
      { kind: 'file', path: join(dir, '1d_time.h5'), input: ['tensor'], target: 'tensor', layout: { time: { axis: 1, mode: 'operator', t0: 3, t1: 20 } } },
      raw('custom', 4, 2),
    );
    assert.deepEqual(ds.manifest.grid, [16]);
    assert.deepEqual([...ds.train.x.shape], [4, 16, 1]);
    assert.deepEqual(ds.manifest.xChannels, ['tensor@t3']);
    assert.deepEqual(ds.manifest.yChannels, ['tensor@t20']);
    const x = ds.train.x.data as Float32Array, y = ds.train.y.data as Float32Array;
    // sample 1, point 5: x = 1 + 0.3 + 0.05, y = 1 + 2.0 + 0.05
    assert.ok(close(x[16 + 5], 1.35), `x ${x[16 + 5]}`);
    assert.ok(close(y[16 + 5], 3.05), `y ${y[16 + 5]}`);
    assert.ok(ds.manifest.warnings.some((w) => /read 'tensor' as \[N=6, T=24, x0=16\]/.test(w)), ds.manifest.warnings.join('\n'));
  });

  test(`${label}: operator mode reads only the two time steps of an HDF5 series (a budget below the whole series)`, async () => {
    const budget = 2000; // tensor is 6 * 24 * 16 float32 = 9216 bytes, one time step 384
    const ds = await prepareDataset(
      { kind: 'file', path: join(dir, '1d_time.h5'), input: ['tensor'], target: 'tensor', layout: { time: { axis: 1, mode: 'operator', t0: 0, t1: 23 } } },
      raw('custom', 4, 2), { memoryBudgetBytes: budget },
    );
    assert.ok(close((ds.train.y.data as Float32Array)[16 + 1], 1 + 2.3 + 0.01));
    await assert.rejects(
      prepareDataset({ kind: 'file', path: join(dir, '1d_time.h5'), input: [], target: 'tensor', layout: { time: { axis: 1, mode: 'autoregressive', tIn: 4, tOut: 4 } } }, raw('custom', 4, 2), { memoryBudgetBytes: budget }),
      /\[tensor\]: 9.0 KiB to read whole for the layout \(expected at most 2.0 KiB \(the memory budget\)\)/,
    );
  });

  test(`${label}: 1D time series, autoregressive T_in 4 -> T_out 6 on time axis 1`, async () => {
    const ds = await prepareDataset(
      { kind: 'file', path: join(dir, '1d_time.h5'), input: [], target: 'tensor', layout: { time: { axis: 1, mode: 'autoregressive', tIn: 4, tOut: 6 } } },
      raw('custom', 4, 2),
    );
    assert.deepEqual([...ds.train.x.shape], [4, 16, 4]);
    assert.deepEqual([...ds.train.y.shape], [4, 16, 6]);
    assert.equal(ds.manifest.parameters.ns?.tIn, 4, 'the trainer reads the windows from parameters.ns');
    const x = ds.train.x.data as Float32Array, y = ds.train.y.data as Float32Array;
    // sample 2, point 3, history frame 1 / target frame 0 (t = 4)
    assert.ok(close(x[(2 * 16 + 3) * 4 + 1], 2 + 0.1 + 0.03));
    assert.ok(close(y[(2 * 16 + 3) * 6 + 0], 2 + 0.4 + 0.03));
    await assert.rejects(
      prepareDataset({ kind: 'file', path: join(dir, '1d_time.h5'), input: [], target: 'tensor', layout: { time: { axis: 1, mode: 'autoregressive', tIn: 20, tOut: 10 } } }, raw('custom', 4, 2)),
      /time axis 1 has 24 steps, T_in \+ T_out = 30/,
    );
  });

  test(`${label}: 2D CFD variables [N, T, H, W] as channels (operator), autoregressive on one variable`, async () => {
    const path = join(dir, '2d_cfd.h5');
    const ds = await prepareDataset(
      { kind: 'file', path, input: ['Vx', 'Vy', 'density', 'pressure'], target: 'density', layout: { time: { axis: 1, mode: 'operator', t0: 0, t1: 1 } } },
      raw('custom', 3, 2),
    );
    assert.deepEqual(ds.manifest.grid, [8, 8]);
    assert.deepEqual([...ds.train.x.shape], [3, 8, 8, 4]);
    const x = ds.train.x.data as Float32Array;
    // sample 0, point (0, 0): channels are the variables (offset 100 per variable)
    assert.deepEqual(Array.from(x.subarray(0, 4), (v) => Math.round(v)), [0, 100, 200, 300]);
    assert.ok(close((ds.train.y.data as Float32Array)[0], 200.1));
    const all = await prepareDataset(
      { kind: 'file', path, input: ['Vx', 'Vy', 'density', 'pressure'], target: 'Vx', layout: { targets: ['Vx', 'Vy', 'density', 'pressure'], time: { axis: 1, mode: 'operator', t0: 2, t1: 3 } } },
      raw('custom', 3, 2),
    );
    assert.deepEqual([...all.train.y.shape], [3, 8, 8, 4], 'every variable is an output channel');
    assert.deepEqual(all.manifest.yChannels, ['Vx@t3', 'Vy@t3', 'density@t3', 'pressure@t3']);
    assert.deepEqual(Array.from((all.train.y.data as Float32Array).subarray(0, 4), (v) => Math.round(v * 10) / 10), [0.3, 100.3, 200.3, 300.3]);
    await assert.rejects(
      prepareDataset({ kind: 'file', path, target: 'Vx' }, { ...raw('navier-stokes', 3, 2), ns: { tIn: 10, tOut: 10 } }),
      /reads as \[N=5, H=22, W=8, T=8\].*layout\.time on axis 1/,
      'a PDEBench [N, T, H, W] series is not taken as [N, H, W, T] silently',
    );
    const ar = await prepareDataset(
      { kind: 'file', path, input: [], target: 'Vx', layout: { time: { axis: 1, mode: 'autoregressive', tIn: 10, tOut: 10 } } },
      raw('navier-stokes', 3, 2),
    );
    assert.deepEqual([...ar.train.x.shape], [3, 8, 8, 10]);
    await assert.rejects(
      prepareDataset({ kind: 'file', path, input: ['Vx', 'Vy'], target: 'Vx', layout: { time: { axis: 1, mode: 'autoregressive', tIn: 4, tOut: 4 } } }, raw('custom', 3, 2)),
      /autoregressive windows take one variable's own history/,
    );
  });

  test(`${label}: per-sample groups 0000/data are read as samples (not time as samples)`, async () => {
    const f = await openDataFile(join(dir, 'groups_1d.h5'));
    const vars = f.variables();
    f.close();
    assert.deepEqual(groupVariables(vars).map((v) => `${v.name} [${v.shape.join(', ')}]`), ['data [5, 21, 16]']);
    const ds = await prepareDataset(
      { kind: 'file', path: join(dir, 'groups_1d.h5'), input: [], target: 'data', layout: { groups: true, time: { axis: 1, mode: 'autoregressive', tIn: 10, tOut: 10 } } },
      raw('custom', 3, 2),
    );
    assert.equal(ds.manifest.sourceSamples, 5);
    assert.deepEqual([...ds.train.x.shape], [3, 16, 10]);
    // group 2 (sample 2 adds 2), point 4, frame 10
    assert.ok(close((ds.train.y.data as Float32Array)[(2 * 16 + 4) * 10], 2 + 1.0 + 0.04));

    await assert.rejects(
      prepareDataset({ kind: 'file', path: join(dir, 'groups_1d.h5'), input: [], target: '0001/data' }, { ...raw('navier-stokes', 3, 2), ns: { tIn: 10, tOut: 10 } }),
      /\[0001\/data\]: is one sample of 5 per-sample groups.*layout\.groups/,
      'one group picked alone is refused, not read with time as samples',
    );
    const f2 = await openDataFile(join(dir, 'groups_2d.h5'));
    assert.deepEqual(groupVariables(f2.variables()).map((v) => `${v.name} [${v.shape.join(', ')}]`), ['data[0] [4, 6, 8, 8]', 'data[1] [4, 6, 8, 8]']);
    f2.close();
    const two = await prepareDataset(
      { kind: 'file', path: join(dir, 'groups_2d.h5'), input: ['data[0]', 'data[1]'], target: 'data[1]', layout: { groups: true, time: { axis: 1, mode: 'operator', t0: 0, t1: 5 } } },
      raw('custom', 3, 1),
    );
    assert.deepEqual([...two.train.x.shape], [3, 8, 8, 2]);
    assert.ok(close((two.train.y.data as Float32Array)[0], 50.5));
    await assert.rejects(
      prepareDataset({ kind: 'file', path: join(dir, 'groups_2d.h5'), input: [], target: 'data', layout: { groups: true } }, raw('custom', 3, 1)),
      /has 2 channels on its last axis.*'data\[0\]', 'data\[1\]'/,
    );
  });

  test(`${label}: a 3-D grid is refused with a message`, async () => {
    await assert.rejects(
      prepareDataset({ kind: 'file', path: join(dir, '3d_cfd.h5'), input: ['Vx'], target: 'Vx', layout: { time: { axis: 1, mode: 'operator', t0: 0, t1: 1 } } }, raw('custom', 2, 1)),
      /would be a 3-D grid.*1-D or 2-D grid/,
    );
  });

  test(`${label}: Navier-Stokes stored in MATLAB order without MATLAB_class: the message names both readings, 'reversed' reads it`, async () => {
    const path = join(dir, 'ns_matlab_order.h5');
    const ns = { benchmark: 'navier-stokes' as const, split: { train: 3, val: 1, shuffle: false }, normalize: false, coords: false, ns: { tIn: 10, tOut: 10 } };
    await assert.rejects(
      prepareDataset({ kind: 'file', path, target: 'u' }, ns),
      /trajectories have 4 frames, T_in \+ T_out = 20: read as \[N=24, H=8, W=8, T=4\] in the stored HDF5 order; with axes reversed .* it is \[N=4, H=8, W=8, T=24\]/,
    );
    const f = await openDataFile(path);
    assert.ok(layoutHints(f.format, f.variables()).some((h) => /'u' \[24, 8, 8, 4\] may be stored in MATLAB order/.test(h)));
    const v = (name: string, shape: number[]) => ({ name, shape, dtype: 'float32' as const, bytes: 4 * shape.reduce((p, q) => p * q, 1) });
    assert.deepEqual(layoutHints('mat5', [v('coeff', [5, 9, 9]), v('sol', [5, 9, 9])]), [], 'Darcy fields are not time series');
    assert.deepEqual(layoutHints('hdf5', [v('tensor', [4, 1, 8, 8])]), [], "PDEBench Darcy's singleton axis is not time");
    assert.equal(layoutHints('hdf5', [v('tensor', [4, 201, 64])]).length, 1);
    f.close();
    const ds = await prepareDataset({ kind: 'file', path, target: 'u', layout: { axisOrder: 'reversed' } }, ns);
    assert.deepEqual([...ds.train.x.shape], [3, 8, 8, 10]);
    // trajectory 1, point (2, 3), frame 12 = target frame 2
    assert.ok(close((ds.train.y.data as Float32Array)[((1 * 8 + 2) * 8 + 3) * 10 + 2], 1 + 1.2 + 0.02 + 0.003));
    assert.ok(ds.manifest.warnings.some((w) => /axes reversed from the stored HDF5 order/.test(w)));
  });
}

layouts(COMMITTED, 'committed h5py fixtures');

const missing = h5pyMissing();
if (missing) {
  console.log(`# pdebench-layouts: fresh h5py files skipped: ${missing}`);
  test('files written afresh by h5py', { skip: missing }, () => {});
} else {
  const fresh = mkdtempSync(join(tmpdir(), 'lino-pdebench-'));
  const r = spawnSync('/usr/bin/python3', [SCRIPT, fresh], { encoding: 'utf8' });
  test('h5py wrote the fixtures', () => assert.equal(r.status, 0, r.stderr));
  layouts(fresh, 'fresh h5py files');
  test('remove the fresh h5py files', () => rmSync(fresh, { recursive: true, force: true }));
}
