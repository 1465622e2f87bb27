// The data writers read back by the Python tools their users have (Debian's numpy, scipy, h5py, one
// process of tools/fixtures/make_data_fixtures.py per check): our .npy by numpy, our MAT 7.3 by scipy
// and h5py with the axes reversed as MATLAB writes them. Reading is test/unit/data/formats.test.ts.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { writeNpy } from '../../../main/data/formats/npy';
import { writeMat73 } from '../../../main/data/formats/mat73';
import { ndarray } from '../../../main/data/ndarray';
import { havePython, NO_PYTHON, runFixtureTool } from '../../helpers/data-fixtures';

test('writers: numpy reads our .npy, scipy sees MAT 7.3 and h5py reads the reversed axes back', { skip: havePython() ? false : NO_PYTHON }, async () => {
  const dir = mkdtempSync(join(tmpdir(), 'lino-write-py-'));
  try {
    const a = ndarray(Float32Array.from({ length: 24 }, (_, i) => i * 1.5 - 4), [2, 3, 4]);
    const b = ndarray(Float64Array.from({ length: 5 }, (_, i) => i / 7), [5]);
    writeNpy(join(dir, 'a.npy'), a);
    const np = runFixtureTool(['verify-npy', join(dir, 'a.npy')]) as Record<string, { shape: number[]; dtype: string; first: number[]; sum: number }>;
    assert.deepEqual(np['a.npy'].shape, [2, 3, 4]);
    assert.equal(np['a.npy'].dtype, 'float32');
    assert.deepEqual(np['a.npy'].first, [-4, -2.5, -1, 0.5, 2]);
    await writeMat73(join(dir, 'x.mat'), { a, b });
    const v = runFixtureTool(['verify-mat73', join(dir, 'x.mat')]) as { version: number[]; userblock: number; vars: Record<string, { shape: number[]; cls: string; first: number[]; sum: number }> };
    assert.deepEqual(v.version, [2, 0], 'scipy.io.matlab.matfile_version says 7.3');
    assert.equal(v.userblock, 512);
    assert.deepEqual(v.vars.a.shape, [2, 3, 4]);
    assert.equal(v.vars.a.cls, 'single');
    assert.deepEqual(v.vars.a.first, [-4, -2.5, -1, 0.5, 2]);
    assert.deepEqual(v.vars.b.shape, [1, 5]);
    assert.equal(v.vars.b.cls, 'double');
  } finally { rmSync(dir, { recursive: true, force: true }); }
});
