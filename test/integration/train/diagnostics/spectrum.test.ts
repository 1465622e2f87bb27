// The error spectrum (main/train/diagnostics/spectrum.ts) against numpy (tools/reference/spectrum_ref.py,
// which follows PDEBench's metric_func), a single mode landing in its shell and band, Parseval, and
// PDEBench's band edges on a hand-computed fixture.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { fftReal } from '../../../../main/data/generate/fft';
import { PDEBENCH_BANDS, pdebenchErrorSum, pdebenchFrmse, shellSpectrum, spectrumReport } from '../../../../main/train/diagnostics/spectrum';
import { Rng } from '../../../../main/data/generate/rng';

const ROOT = fileURLToPath(new URL('../../../../', import.meta.url));
const PY = '/usr/bin/python3';
const numpy = spawnSync(PY, ['-c', 'import numpy'], { encoding: 'utf8' }).status === 0;
const NO_NUMPY = `${PY} with numpy not available`;

function reference(job: { n: number; grid: number[]; pred: number[]; truth: number[] }): any {
  const r = spawnSync(PY, [`${ROOT}tools/reference/spectrum_ref.py`], { input: JSON.stringify(job), encoding: 'utf8', maxBuffer: 64 << 20 });
  if (r.status !== 0) throw new Error(`spectrum_ref.py failed: ${r.stderr}`);
  return JSON.parse(r.stdout);
}

function randomField(rng: Rng, length: number): number[] {
  return Array.from({ length }, () => rng.uniform() * 2 - 1);
}

const close = (a: ArrayLike<number>, b: ArrayLike<number>, tol: number, what: string) => {
  assert.equal(a.length, b.length, `${what}: length`);
  const scale = Math.max(1e-300, ...Array.from(b, Math.abs));
  for (let i = 0; i < a.length; i++) assert.ok(Math.abs(a[i]! - b[i]!) <= tol * scale, `${what}[${i}]: ${a[i]} vs numpy ${b[i]} (tolerance ${tol} of ${scale})`);
};

// 29 and 9: the Darcy grids (2^k + 1, Bluestein); 16 and 64: fft.js directly; 12 x 20: non-square
for (const grid of [[29, 29], [16, 16], [12, 20], [9, 9], [64], [33]]) {
  test(`spectrum ${grid.join('x')}: FFT, shells and PDEBench fRMSE agree with numpy to 1e-6`, { skip: numpy ? false : NO_NUMPY }, () => {
    const rng = new Rng(grid.reduce((a, b) => a * 31 + b, 7));
    const n = 3, C = 2, P = grid.reduce((a, b) => a * b, 1);
    const truth = randomField(rng, n * P * C);
    const pred = truth.map((v) => v + 0.1 * (rng.uniform() - 0.5));
    const ref = reference({ n, grid, pred, truth });
    close(fftReal(truth, grid, 0, C), ref.fft, 1e-6, 'fft');
    const rep = spectrumReport({ data: pred, shape: [n, ...grid, C] }, { data: truth, shape: [n, ...grid, C] });
    for (let c = 0; c < C; c++) {
      for (let s = 0; s < n; s++) {
        const err = pred.map((v, i) => v - truth[i]!);
        close(shellSpectrum(err, grid, s * P * C + c, C), ref.shells[c][s].error, 1e-6, `error shells c${c} s${s}`);
        close(shellSpectrum(truth, grid, s * P * C + c, C), ref.shells[c][s].truth, 1e-6, `truth shells c${c} s${s}`);
      }
      const sums = Array.from({ length: n }, (_, s) => pdebenchErrorSum(pred.map((v, i) => v - truth[i]!), grid, s * P * C + c, C));
      const f = pdebenchFrmse(sums, grid);
      close(f.perWavenumber, ref.frmse[c].perWavenumber, 1e-6, `fRMSE per wavenumber c${c}`);
      for (const b of ['low', 'mid', 'high'] as const) {
        const want = ref.frmse[c].bands[b];
        if (want === null) assert.equal(f.bands[b], null, `band ${b} is empty on ${grid.join('x')}`);
        else close([f.bands[b]!], [want], 1e-6, `fRMSE ${b} c${c}`);
        const got = rep.perChannel[c]!.fRmse[b];
        if (want === null) assert.equal(got, null); else close([got!], [want], 1e-6, `report fRMSE ${b} c${c}`);
      }
    }
  });
}

test('a single mode lands in its shell and band; Parseval holds', () => {
  const n = 32;
  const field = (kx: number, ky: number) => Array.from({ length: n * n }, (_, p) => Math.cos(2 * Math.PI * (kx * Math.floor(p / n) + ky * (p % n)) / n));
  // cos(2 pi 6 x): power 1/2 in shell 6 (two bins of 1/4), a mid-band mode
  const E = shellSpectrum(field(6, 0), [n, n]);
  E.forEach((v, k) => assert.ok(k === 6 ? Math.abs(v - 0.5) < 1e-12 : Math.abs(v) < 1e-12, `shell ${k}: ${v}`));
  // (3, 4): |kappa| = 5 exactly; (10, 10): floor(14.14) = 14, a high-band mode
  assert.ok(Math.abs(shellSpectrum(field(3, 4), [n, n])[5]! - 0.5) < 1e-12);
  assert.ok(Math.abs(shellSpectrum(field(10, 10), [n, n])[14]! - 0.5) < 1e-12);
  // a low-frequency error on a mid+high truth: only the low band is wrong
  const truth = field(6, 0).map((v, p) => v + field(13, 0)[p]!);
  const pred = truth.map((v, p) => v + 0.1 * field(2, 0)[p]!);
  const r = spectrumReport({ data: pred, shape: [1, n, n, 1] }, { data: truth, shape: [1, n, n, 1] });
  assert.ok(r.mean.fRmse.low! > 0 && r.mean.fRmse.mid! < 1e-12 && r.mean.fRmse.high! < 1e-12, JSON.stringify(r.mean.fRmse));
  assert.equal(r.mean.bandRelative.low, null, 'the truth has no low-band power');
  assert.ok(r.mean.bandRelative.mid! < 1e-12 && r.mean.bandRelative.high! < 1e-12);
  // Parseval on a random 1-D field of odd length: sum_k E(k) = mean(u^2)
  const rng = new Rng(5);
  const u = randomField(rng, 45);
  const sum = shellSpectrum(u, [45]).reduce((a, b) => a + b, 0);
  assert.ok(Math.abs(sum - u.reduce((a, b) => a + b * b, 0) / 45) < 1e-12);
});

test("PDEBench's band definition on a fixture: shells [0, 4), [4, 12), [12, min(nx, ny)/2) of the non-negative quarter", () => {
  assert.deepEqual(PDEBENCH_BANDS, { iLow: 4, iHigh: 12 });
  const n = 32;
  // an error of one mode at (i, j) = (3, 3): floor(sqrt 18) = 4, the first mid shell;
  // |F| at (3, 3) is n^2 / 2 for cos, so PDEBench's per-wavenumber value is (n^2 / 2) / n^2 = 1/2 there
  const e = Array.from({ length: n * n }, (_, p) => Math.cos(2 * Math.PI * (3 * Math.floor(p / n) + 3 * (p % n)) / n));
  const f = pdebenchFrmse([pdebenchErrorSum(e, [n, n])], [n, n]);
  assert.equal(f.perWavenumber.length, 16);
  f.perWavenumber.forEach((v, k) => assert.ok(Math.abs(v - (k === 4 ? 0.5 : 0)) < 1e-12, `k ${k}: ${v}`));
  assert.ok(Math.abs(f.bands.low!) < 1e-12 && Math.abs(f.bands.mid! - 0.5 / 8) < 1e-12 && Math.abs(f.bands.high!) < 1e-12, JSON.stringify(f.bands));
  // the (3, -3) mode is outside PDEBench's quarter: its fRMSE is zero although the error is not
  const m = Array.from({ length: n * n }, (_, p) => Math.cos(2 * Math.PI * (3 * Math.floor(p / n) - 3 * (p % n)) / n));
  const g = pdebenchFrmse([pdebenchErrorSum(m, [n, n])], [n, n]);
  assert.ok(g.perWavenumber.every((v) => Math.abs(v) < 1e-12), 'PDEBench sums i, j in [0, n/2) only');
  // shell 15 (the last) holds (9, 12) .. (15, 0); 1-D: rfft bins 0..n/2 (17 values), band high = [12, 17)
  assert.equal(pdebenchErrorSum(e.slice(0, n), [n]).length, 17);
});

test('spectrum refuses mismatched shapes and 3-D grids', () => {
  assert.throws(() => spectrumReport({ data: [0, 0], shape: [1, 2, 1] }, { data: [0, 0, 0], shape: [1, 3, 1] }), /prediction shape 1x2x1 differs from the truth's 1x3x1/);
  assert.throws(() => shellSpectrum(new Float64Array(8), [2, 2, 2]), /grid 2x2x2 is not a 1-D or 2-D grid/);
});
