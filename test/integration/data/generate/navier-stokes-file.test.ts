// The Navier-Stokes file holds what FNO's published file holds: `a` (initial
// vorticity, t = 0), `u` (frames at t = 1..T) and `t` (the record times, 1 x T as scipy's savemat
// writes ns_2d.py's 1-D array); written by the CLI's writer and read back. And the data agree with
// FNO's own solver: a NumPy port of ns_2d.py (tools/reference/ns_2d_ref.py; torch.fft when PyTorch is
// installed), started from the workbench's first frame (t = 1) with dt = 1e-4, lands on its second.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { generateDataset } from '../../../../main/data/generate/index';
import { nsGrf } from '../../../../main/data/generate/grf';
import { sampleRng } from '../../../../main/data/generate/rng';
import { writeGeneratedDataset } from '../../../../main/data/export';
import { openDataFile } from '../../../../main/data/formats/index';
import { tempDir } from '../../../helpers/env';
import { ROOT } from '../../../helpers/data-fixtures';

const PY = '/usr/bin/python3';
const has = (mod: string) => spawnSync(PY, ['-c', `import ${mod}`]).status === 0;

test('navier-stokes: the generated .mat holds a, u and t as FNO\'s file does, and they read back', async () => {
  const dir = tempDir('lino-ns-file-');
  try {
    const gen = await generateDataset('navier-stokes', { preset: 'tiny', samples: 2, seed: 5 }, {}, { workers: 0 });
    assert.deepEqual(Object.keys(gen.variables), ['a', 'u', 't']);
    const mat = (await writeGeneratedDataset(gen, dir.path))[0]!;
    const f = await openDataFile(mat);
    try {
      assert.deepEqual(f.variables().map((v) => v.name).sort(), ['a', 't', 'u']);
      const a = await f.read('a'), u = await f.read('u'), t = await f.read('t');
      assert.deepEqual(a.shape, [2, 32, 32]);
      assert.deepEqual(u.shape, [2, 32, 32, 20]);
      assert.deepEqual(t.shape, [1, 20]);
      assert.deepEqual(Array.from(t.data as Float32Array), Array.from({ length: 20 }, (_, k) => k + 1));
      assert.deepEqual(Buffer.from((u.data as Float32Array).buffer), Buffer.from((gen.variables.u.data as Float32Array).buffer));
      // a is the initial vorticity the trajectory starts from (sample 1's GRF draw), not a frame
      const w0 = nsGrf(sampleRng(5, 'navier-stokes', 1), 32, 2.5, 7);
      const a1 = (a.data as Float32Array).subarray(32 * 32);
      for (let p = 0; p < 32 * 32; p++) assert.equal(a1[p], Math.fround(w0[p]!));
    } finally {
      f.close();
    }
  } finally {
    dir.cleanup();
  }
});

/** FNO's scheme (forward Euler + Crank-Nicolson, dt 1e-4) from the quick preset's frame t = 1 to t = 2; relative L2 to the preset's frame t = 2. */
async function parity(backend: 'numpy' | 'torch'): Promise<number> {
  const dir = tempDir('lino-ns-parity-');
  try {
    const gen = await generateDataset('navier-stokes', { preset: 'quick', samples: 1, frames: 2, tIn: 1, tOut: 1 }, {}, { workers: 0 });
    const s = 64, u = gen.variables.u.data as Float32Array;
    const frame = (k: number) => Float64Array.from({ length: s * s }, (_, p) => u[p * 2 + k]!);
    writeFileSync(join(dir.path, 'w1.f64'), frame(0));
    const out = join(dir.path, 'w2.f64');
    execFileSync(PY, [join(ROOT, 'tools/reference/ns_2d_ref.py'), '--backend', backend, '--s', String(s), '--T', '1', '--dt', '1e-4', join(dir.path, 'w1.f64'), out], { timeout: 120_000 });
    const b = readFileSync(out);
    const ref = new Float64Array(b.buffer, b.byteOffset, s * s);
    const mine = frame(1);
    let d = 0, m = 0;
    for (let p = 0; p < s * s; p++) { d += (mine[p]! - ref[p]!) ** 2; m += ref[p]! ** 2; }
    return Math.sqrt(d / m);
  } finally {
    dir.cleanup();
  }
}

// torch.fft when PyTorch is installed (as ns_2d.py runs), else the same code on numpy.fft
const backend = has('torch') ? 'torch' : has('numpy') ? 'numpy' : null;
test('navier-stokes: ns_2d.py\'s scheme (dt 1e-4) from the quick preset\'s t = 1 agrees with its adaptive-step t = 2', { skip: backend ? false : `${PY} has neither torch (Debian python3-torch) nor numpy` }, async () => {
  const rel = await parity(backend!);
  console.log(`quick preset (64^2, adaptive CN/AB2) vs ns_2d.py's scheme on ${backend}, t = 1 -> 2: relative L2 ${rel.toExponential(2)}`);
  assert.ok(rel < 1e-4, `relative L2 ${rel}`);
});

test('navier-stokes: the CLI refuses a set shorter than its training window before writing anything', async () => {
  const dir = tempDir('lino-ns-cli-');
  try {
    const cli = (await import('../../../../main/cli/commands/data-generate')).default;
    await assert.rejects(cli.run(['navier-stokes', '--preset', 'tiny', '--frames', '5', '--out', dir.path]), /"frames" = 5: expected at least tIn \+ tOut = 10 \+ 10 = 20/);
    assert.deepEqual(readdirSync(dir.path), [], 'no file written');
    // with a window that fits, the same frames are fine, and the manifest records the window
    const log = console.log;
    console.log = () => {};
    try {
      assert.equal(await cli.run(['navier-stokes', '--preset', 'tiny', '--samples', '1', '--frames', '5', '--t-in', '3', '--t-out', '2', '--out', dir.path]), 0);
    } finally {
      console.log = log;
    }
    const manifest = JSON.parse(readFileSync(join(dir.path, readdirSync(dir.path).find((f) => f.endsWith('.manifest.json'))!), 'utf8'));
    assert.deepEqual([manifest.params.frames, manifest.params.tIn, manifest.params.tOut], [5, 3, 2]);
  } finally {
    dir.cleanup();
  }
});
