// Empirical spectra of the three GRFs against the prescribed power laws.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Rng } from '../../../../main/data/generate/rng';
import { grf1Coefficients, grf1Sample, grf1Eigs, darcyGrf, darcyGrfCoef, idct2, nsGrf, nsGrfSqrtEig } from '../../../../main/data/generate/grf';
import { fftPlan, Fft2 } from '../../../../main/data/generate/fft';

/** Least-squares slope of log(power) against log(base). */
function slope(x: number[], y: number[]): number {
  const lx = x.map(Math.log), ly = y.map(Math.log);
  const mx = lx.reduce((a, b) => a + b) / lx.length, my = ly.reduce((a, b) => a + b) / ly.length;
  let num = 0, den = 0;
  for (let i = 0; i < lx.length; i++) { num += (lx[i] - mx) * (ly[i] - my); den += (lx[i] - mx) ** 2; }
  return num / den;
}

test('rng: uniform and normal moments', () => {
  const r = new Rng(1);
  let s = 0, s2 = 0, s4 = 0;
  const n = 200000;
  for (let i = 0; i < n; i++) { const z = r.normal(); s += z; s2 += z * z; s4 += z ** 4; }
  assert.ok(Math.abs(s / n) < 0.01);
  assert.ok(Math.abs(s2 / n - 1) < 0.02);
  assert.ok(Math.abs(s4 / n - 3) < 0.1);
  assert.notEqual(new Rng(1).nextUint32(), new Rng(2).nextUint32());
});

test('grf 1-D (Burgers): E|U_k|^2 = s^2 eig_k^2 / 2, power ~ ((2 pi k)^2 + tau^2)^-gamma', () => {
  const s = 128, K = 63, S = 600;
  const rng = new Rng(5);
  const power = new Float64Array(K + 1);
  const out = new Float64Array(2 * s);
  for (let n = 0; n < S; n++) {
    const { alpha, beta } = grf1Coefficients(rng, K, 2, 5, 25);
    const u = grf1Sample(alpha, beta, s);
    const c = new Float64Array(2 * s);
    for (let j = 0; j < s; j++) c[2 * j] = u[j];
    fftPlan(s).transform(out, c);
    for (let k = 1; k <= K; k++) power[k] += (out[2 * k] ** 2 + out[2 * k + 1] ** 2) / S;
  }
  const e = grf1Eigs(K, 2, 5, 25);
  // bins of 8 modes: ratio to the prescription within 10 %
  for (let k0 = 1; k0 + 7 <= K; k0 += 8) {
    let emp = 0, exp = 0;
    for (let k = k0; k < k0 + 8; k++) { emp += power[k]; exp += (s * s * e[k] ** 2) / 2; }
    assert.ok(Math.abs(emp / exp - 1) < 0.1, `modes ${k0}..${k0 + 7}: ratio ${emp / exp}`);
  }
  const ks = Array.from({ length: K }, (_, i) => i + 1);
  const g = -slope(ks.map((k) => (2 * Math.PI * k) ** 2 + 25), ks.map((k) => power[k]));
  assert.ok(Math.abs(g - 2) < 0.05, `fitted gamma ${g}`);
});

test('grf 2-D cosine (Darcy): cosine-mode power = s^2 coef^2, exponent alpha = 2', () => {
  const s = 24, S = 150;
  const rng = new Rng(9);
  const coef = darcyGrfCoef(s, 2, 3);
  const power = new Float64Array(s * s);
  for (let n = 0; n < S; n++) {
    const U = darcyGrf(rng, s, 2, 3);
    // forward orthonormal DCT-II written out directly (independent of idct2)
    for (let k1 = 0; k1 < s; k1++)
      for (let k2 = 0; k2 < s; k2++) {
        let v = 0;
        for (let a = 0; a < s; a++) {
          const ca = Math.cos((Math.PI * (2 * a + 1) * k1) / (2 * s));
          for (let b = 0; b < s; b++) v += U[a * s + b] * ca * Math.cos((Math.PI * (2 * b + 1) * k2) / (2 * s));
        }
        v *= (k1 ? Math.sqrt(2 / s) : Math.sqrt(1 / s)) * (k2 ? Math.sqrt(2 / s) : Math.sqrt(1 / s));
        power[k1 * s + k2] += (v * v) / S;
      }
  }
  assert.ok(power[0] < 1e-20, 'mean mode zeroed');
  const x: number[] = [], y: number[] = [];
  for (let r = 1; r < s; r += 3) {
    let emp = 0, exp = 0;
    for (let k1 = 0; k1 < s; k1++)
      for (let k2 = 0; k2 < s; k2++) {
        const q = Math.hypot(k1, k2);
        if (q >= r && q < r + 3) { emp += power[k1 * s + k2]; exp += s * s * coef[k1 * s + k2] ** 2; }
      }
    if (exp === 0) continue;
    assert.ok(Math.abs(emp / exp - 1) < 0.15, `shell ${r}: ratio ${emp / exp}`);
  }
  for (let k1 = 0; k1 < s; k1++) for (let k2 = 0; k2 < s; k2++) if (k1 + k2 > 0) { x.push(Math.PI ** 2 * (k1 * k1 + k2 * k2) + 9); y.push(power[k1 * s + k2]); }
  const a = -2 * slope(x, y) / 2; // power ~ coef^2 = (...)^-alpha
  assert.ok(Math.abs(a - 2) < 0.1, `fitted alpha ${a}`);
});

test('grf 2-D periodic (Navier-Stokes): E|FFT(w)_k|^2 = sqrt_eig_k^2, exponent alpha = 2.5, zero mean', () => {
  const s = 32, S = 200;
  const rng = new Rng(2);
  const e = nsGrfSqrtEig(s, 2.5, 7);
  const power = new Float64Array(s * s);
  const f = new Fft2(s);
  for (let n = 0; n < S; n++) {
    const w = nsGrf(rng, s, 2.5, 7);
    let mean = 0;
    for (const v of w) mean += v;
    assert.ok(Math.abs(mean / w.length) < 1e-10);
    const c = new Float64Array(2 * s * s);
    for (let i = 0; i < s * s; i++) c[2 * i] = w[i];
    f.transform(c);
    for (let i = 0; i < s * s; i++) power[i] += (c[2 * i] ** 2 + c[2 * i + 1] ** 2) / S;
  }
  const x: number[] = [], y: number[] = [];
  for (let r = 1; r < s / 2 - 2; r += 2) {
    let emp = 0, exp = 0;
    for (let i = 0; i < s; i++)
      for (let j = 0; j < s; j++) {
        const kx = i < s / 2 ? i : i - s, ky = j < s / 2 ? j : j - s;
        const q = Math.hypot(kx, ky);
        if (q >= r && q < r + 2) { emp += power[i * s + j]; exp += e[i * s + j] ** 2; }
      }
    assert.ok(Math.abs(emp / exp - 1) < 0.12, `shell ${r}: ratio ${emp / exp}`);
    x.push(4 * Math.PI ** 2 * (r + 1) ** 2 + 49); y.push(emp / exp * (e[(r + 1)] ** 2));
  }
  const a = -slope(x, y);
  assert.ok(Math.abs(a - 2.5) < 0.1, `fitted alpha ${a}`);
});

test('idct2 equals MATLAB idct2 written out (odd and even sizes)', () => {
  for (const s of [4, 5, 6, 7, 9]) {
    const L = Float64Array.from({ length: s * s }, (_, i) => Math.sin(i * 1.7) + 0.3);
    const U = idct2(L, s);
    for (let n1 = 0; n1 < s; n1++)
      for (let n2 = 0; n2 < s; n2++) {
        let v = 0;
        for (let k1 = 0; k1 < s; k1++)
          for (let k2 = 0; k2 < s; k2++) {
            const w = (k1 ? Math.sqrt(2 / s) : Math.sqrt(1 / s)) * (k2 ? Math.sqrt(2 / s) : Math.sqrt(1 / s));
            v += w * L[k1 * s + k2] * Math.cos((Math.PI * (2 * n1 + 1) * k1) / (2 * s)) * Math.cos((Math.PI * (2 * n2 + 1) * k2) / (2 * s));
          }
        assert.ok(Math.abs(v - U[n1 * s + n2]) < 1e-12, `s=${s} (${n1},${n2})`);
      }
  }
});
