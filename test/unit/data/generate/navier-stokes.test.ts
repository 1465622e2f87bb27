import { test } from 'node:test';
import assert from 'node:assert/strict';
import { nsSolve, fnoForcing } from '../../../../main/data/generate/navier-stokes';
import { nsGrf } from '../../../../main/data/generate/grf';
import { Rng } from '../../../../main/data/generate/rng';
import { generateDataset } from '../../../../main/data/generate/index';

test('navier-stokes: without forcing a single Fourier mode decays as exp(-nu 4 pi^2 |k|^2 t) (both schemes)', () => {
  const s = 32, nu = 1e-3; // the benchmark viscosity; CN error (nu L dt)^3 / 12 per step stays far below 1e-6
  for (const [k1, k2] of [[1, 0], [2, 3], [-4, 1]]) {
    const w0 = new Float64Array(s * s);
    for (let i = 0; i < s; i++) for (let j = 0; j < s; j++) w0[i * s + j] = Math.cos(2 * Math.PI * (k1 * i / s + k2 * j / s) + 0.3);
    const L = 4 * Math.PI ** 2 * (k1 * k1 + k2 * k2);
    for (const scheme of ['euler', 'ab2'] as const) {
      const run = nsSolve(w0, s, { nu, forcing: null, frames: 2, interval: 1, scheme, dt: 1e-3 });
      run.frames.forEach((f, t) => {
        const decay = Math.exp(-nu * L * (t + 1));
        let err = 0;
        for (let p = 0; p < s * s; p++) err = Math.max(err, Math.abs(f[p] - decay * w0[p]));
        assert.ok(err <= 1e-6 * decay, `${scheme} k=(${k1},${k2}) t=${t + 1}: error ${err / decay}`);
      });
    }
  }
});

test('navier-stokes: mean vorticity stays 0 with the FNO forcing', () => {
  const s = 32;
  const w0 = nsGrf(new Rng(1), s, 2.5, 7);
  const run = nsSolve(w0, s, { nu: 1e-3, forcing: fnoForcing(s, 0.1), frames: 3, scheme: 'ab2', cfl: 0.1 });
  for (const f of run.frames) {
    let mean = 0, amp = 0;
    for (const v of f) { mean += v; amp = Math.max(amp, Math.abs(v)); }
    assert.ok(Math.abs(mean / f.length) < 1e-12 * amp, `mean ${mean / f.length}`);
    assert.ok(amp > 0.1);
  }
});

test('navier-stokes: the adaptive CN/AB2 step matches the paper scheme (forward Euler, dt = 1e-4)', () => {
  const s = 32;
  const w0 = nsGrf(new Rng(4), s, 2.5, 7);
  const f = fnoForcing(s, 0.1);
  const a = nsSolve(w0, s, { nu: 1e-3, forcing: f, frames: 1, scheme: 'ab2', cfl: 0.1 });
  const b = nsSolve(w0, s, { nu: 1e-3, forcing: f, frames: 1, scheme: 'euler', dt: 1e-4 });
  let d = 0, m = 0;
  for (let p = 0; p < s * s; p++) { d += (a.frames[0][p] - b.frames[0][p]) ** 2; m += b.frames[0][p] ** 2; }
  assert.ok(Math.sqrt(d / m) < 2e-4, `relative difference ${Math.sqrt(d / m)}`);
});

test('navier-stokes: tiny preset [N, s, s, T] float32, finite, deterministic, long enough for its training window', async () => {
  const ds = await generateDataset('navier-stokes', { preset: 'tiny', seed: 2 });
  const u = ds.variables.u;
  assert.deepEqual(u.shape, [8, 32, 32, 20], 'eight trajectories: enough to split into train, validation and test');
  const p = ds.manifest.params as { tIn: number; tOut: number; frames: number };
  assert.deepEqual([p.tIn, p.tOut], [10, 10], 'the manifest records the window the set is made for');
  assert.ok(p.frames >= p.tIn + p.tOut);
  assert.equal(u.dtype, 'float32');
  let amp = 0;
  for (const v of u.data as Float32Array) { assert.ok(Number.isFinite(v)); amp = Math.max(amp, Math.abs(v)); }
  assert.ok(amp > 0.1 && amp < 10, `amplitude ${amp}`);
  const again = await generateDataset('navier-stokes', { preset: 'tiny', seed: 2 }, {}, { workers: 0 });
  assert.deepEqual(Buffer.from(again.variables.u.data.buffer), Buffer.from(u.data.buffer));
  assert.equal(ds.manifest.fineGridThenStride, false);
});

test('navier-stokes: a running trajectory reports its progress before it finishes', async () => {
  for (const workers of [0, 1]) {
    const messages: string[] = [];
    await generateDataset('navier-stokes', { preset: 'quick', samples: 1, frames: 4, tIn: 2, tOut: 2, resolution: 32 }, {
      onProgress: (p) => { if (p.done === 0) messages.push(p.message ?? ''); },
    }, { workers });
    assert.ok(messages.some((m) => /counting running ones/.test(m)), `workers=${workers}: ${messages.join(' | ')}`);
  }
});
