import { test } from 'node:test';
import assert from 'node:assert/strict';
import { burgersSolve, burgersSample } from '../../../../main/data/generate/burgers';
import { grf1Coefficients, grf1Sample } from '../../../../main/data/generate/grf';
import { Rng } from '../../../../main/data/generate/rng';
import { PRESETS, type BurgersParams } from '../../../../main/data/generate/presets';
import { generateDataset } from '../../../../main/data/generate/index';

test('burgers: a run at double resolution agrees to 1e-4 at the stored points', () => {
  for (const seed of [1, 2]) {
    const { alpha, beta } = grf1Coefficients(new Rng(seed), 128, 2, 5, 25);
    const a = burgersSolve(grf1Sample(alpha, beta, 256), 0.1, 1, 0.5);
    const b = burgersSolve(grf1Sample(alpha, beta, 512), 0.1, 1, 0.5);
    let d = 0, m = 0;
    for (let j = 0; j < 256; j++) { d = Math.max(d, Math.abs(a.uT[j] - b.uT[2 * j])); m = Math.max(m, Math.abs(b.uT[2 * j])); }
    assert.ok(d <= 1e-4 * Math.max(m, 1e-3), `seed ${seed}: max difference ${d} (max |u| ${m})`);
    assert.ok(b.steps > a.steps);
  }
});

test('burgers: mean is conserved and energy decays; a steep low-viscosity front still agrees across resolutions', () => {
  const n = 512;
  const u0 = new Float64Array(n);
  for (let j = 0; j < n; j++) u0[j] = Math.sin(2 * Math.PI * j / n) + 0.2;
  const r = burgersSolve(u0, 0.01, 0.3, 0.5);
  const r2 = burgersSolve(Float64Array.from({ length: 2 * n }, (_, j) => Math.sin(2 * Math.PI * j / (2 * n)) + 0.2), 0.01, 0.3, 0.5);
  const mean = (x: Float64Array) => x.reduce((a, b) => a + b, 0) / x.length;
  const energy = (x: Float64Array) => x.reduce((a, b) => a + b * b, 0) / x.length;
  assert.ok(Math.abs(mean(r.uT) - 0.2) < 1e-12);
  assert.ok(energy(r.uT) < energy(u0));
  let d = 0;
  for (let j = 0; j < n; j++) d = Math.max(d, Math.abs(r.uT[j] - r2.uT[2 * j]));
  assert.ok(d < 1e-4, `difference ${d}`);
});

test('burgers: stored points stride the solve grid', () => {
  const p = PRESETS.burgers.tiny as BurgersParams;
  const coarse = burgersSample(5, 0, p);
  const fine = burgersSample(5, 0, { ...p, resolution: p.solveResolution });
  const r = p.solveResolution / p.resolution;
  for (let j = 0; j < p.resolution; j++) { assert.equal(coarse.a[j], fine.a[j * r]); assert.equal(coarse.u[j], fine.u[j * r]); }
});

test('burgers: tiny preset shapes, dtype, finite, deterministic', async () => {
  const ds = await generateDataset('burgers', { preset: 'tiny', seed: 1 });
  assert.deepEqual(ds.variables.a.shape, [4, 64]);
  assert.deepEqual(ds.variables.u.shape, [4, 64]);
  assert.equal(ds.variables.u.dtype, 'float32');
  for (const v of ds.variables.u.data as Float32Array) assert.ok(Number.isFinite(v));
  let amp = 0;
  for (const v of ds.variables.a.data as Float32Array) amp = Math.max(amp, Math.abs(v));
  assert.ok(amp > 0.05 && amp < 5);
  const again = await generateDataset('burgers', { preset: 'tiny', seed: 1 }, {}, { workers: 0 });
  assert.deepEqual(Buffer.from(again.variables.u.data.buffer), Buffer.from(ds.variables.u.data.buffer));
  assert.equal(ds.manifest.fineGridThenStride, true);
});

test('real FFT matches the complex transform and inverts', async () => {
  const { RealFft, fftPlan } = await import('../../../../main/data/generate/fft');
  for (const n of [4, 8, 64, 1024]) {
    const x = Float64Array.from({ length: n }, (_, i) => Math.sin(i * 0.37) + (i % 3));
    const c = new Float64Array(2 * n);
    x.forEach((v, i) => (c[2 * i] = v));
    const o = new Float64Array(2 * n);
    fftPlan(n).transform(o, c);
    const R = new RealFft(n);
    const X = new Float64Array(n + 2);
    R.forward(x, X);
    for (let k = 0; k <= n / 2; k++) {
      assert.ok(Math.abs(X[2 * k] - o[2 * k]) < 1e-10 && Math.abs(X[2 * k + 1] - o[2 * k + 1]) < 1e-10, `n=${n} k=${k}`);
    }
    const y = new Float64Array(n);
    R.inverse(X, y);
    for (let i = 0; i < n; i++) assert.ok(Math.abs(y[i] - x[i]) < 1e-12);
  }
});
