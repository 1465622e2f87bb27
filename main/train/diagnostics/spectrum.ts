// Where in wavenumber an error lives, for 1-D and 2-D fields (docs/diagnostics.md gives each formula):
//   - the shell power spectrum of the error and of the truth, E(k) = sum over |kappa| in shell k of |F u(kappa)|^2 / N^2
//     (full FFT plane, integer wavenumbers, shell k = floor(|kappa|), as PDEBench bins; sum_k E(k) = mean(u^2));
//   - the relative error per wavenumber and per band, sqrt(E_err / E_true);
//   - PDEBench's fRMSE low / mid / high, exactly as its metric_func (pdebench/models/metrics.py): iLow = 4, iHigh = 12.
// Pure functions on plain arrays: the evaluation, the CLI and the renderer's data all come through here.
import type { z } from 'zod';
import { fftReal } from '../../data/generate/fft';
import type { SpectrumReport as SpectrumReportSchema, SpectrumSummary as SpectrumSummarySchema } from './schema';

/** PDEBench's band edges (metric_func's defaults iLow = 4, iHigh = 12): low = shells [0, 4), mid = [4, 12), high = [12, end). */
export const PDEBENCH_BANDS = { iLow: 4, iHigh: 12 } as const;
export const BAND_NAMES = ['low', 'mid', 'high'] as const;
export type Bands = { low: number | null; mid: number | null; high: number | null };

function checkGrid(grid: readonly number[], what: string): void {
  if (grid.length < 1 || grid.length > 2 || grid.some((g) => !Number.isInteger(g) || g < 2)) {
    throw new Error(`${what}: grid ${grid.join('x')} is not a 1-D or 2-D grid of at least 2 points per axis`);
  }
}

/** Number of shells of the full-plane spectrum: floor(|kappa|) for the largest |kappa| on the grid, plus one. */
export function shellCount(grid: readonly number[]): number {
  const r2 = grid.reduce((s, n) => s + Math.floor(n / 2) ** 2, 0);
  return Math.floor(Math.sqrt(r2)) + 1;
}

/** Signed integer wavenumber of FFT bin j (numpy's fftfreq(n) * n). */
const wave = (j: number, n: number) => (j <= (n - 1) / 2 ? j : j - n);

/**
 * E(k) of one real field (row-major over grid, read at offset + p * stride): |F|^2 / N^2 summed over
 * shell floor(sqrt(kx^2 + ky^2)) of the whole FFT plane, so that sum_k E(k) = mean(u^2) (Parseval).
 */
export function shellSpectrum(field: ArrayLike<number>, grid: readonly number[], offset = 0, stride = 1): Float64Array {
  checkGrid(grid, 'spectrum');
  const F = fftReal(field, grid, offset, stride);
  const n0 = grid[0]!, n1 = grid.length === 2 ? grid[1]! : 1;
  const N = n0 * n1;
  const E = new Float64Array(shellCount(grid));
  for (let i = 0; i < n0; i++) {
    const a = wave(i, n0);
    for (let j = 0; j < n1; j++) {
      const b = n1 > 1 ? wave(j, n1) : 0;
      const p = i * n1 + j;
      E[Math.floor(Math.sqrt(a * a + b * b))]! += (F[2 * p]! ** 2 + F[2 * p + 1]! ** 2) / (N * N);
    }
  }
  return E;
}

/**
 * PDEBench's per-wavenumber squared error sum for one sample, before its batch mean (metric_func):
 * 1-D: |rfft(e)[k]|^2 for k = 0..floor(n/2); 2-D: sum of |fftn(e)[i, j]|^2 over i < nx//2, j < ny//2
 * (its non-negative quarter only) with it = floor(sqrt(i^2 + j^2)) <= min(nx//2, ny//2) - 1. Unscaled.
 */
export function pdebenchErrorSum(error: ArrayLike<number>, grid: readonly number[], offset = 0, stride = 1): Float64Array {
  checkGrid(grid, 'fRMSE');
  const F = fftReal(error, grid, offset, stride);
  if (grid.length === 1) {
    const n = grid[0]!;
    const out = new Float64Array(Math.floor(n / 2) + 1);
    for (let k = 0; k < out.length; k++) out[k] = F[2 * k]! ** 2 + F[2 * k + 1]! ** 2;
    return out;
  }
  const [nx, ny] = grid as [number, number];
  const hx = Math.floor(nx / 2), hy = Math.floor(ny / 2), top = Math.min(hx, hy);
  const out = new Float64Array(top);
  for (let i = 0; i < hx; i++) for (let j = 0; j < hy; j++) {
    const it = Math.floor(Math.sqrt(i * i + j * j));
    if (it > top - 1) continue;
    const p = i * ny + j;
    out[it]! += F[2 * p]! ** 2 + F[2 * p + 1]! ** 2;
  }
  return out;
}

/**
 * PDEBench's fRMSE from the per-sample sums of pdebenchErrorSum over a batch: per wavenumber
 * sqrt(mean over samples) / N * L (N = nx or nx * ny, L = Lx or Lx * Ly), then the mean over
 * [0, iLow), [iLow, iHigh), [iHigh, end). A band with no wavenumber on this grid is null (PDEBench: NaN).
 */
export function pdebenchFrmse(sums: readonly Float64Array[], grid: readonly number[], lengths: readonly number[] = grid.map(() => 1)): { perWavenumber: number[]; bands: Bands } {
  if (sums.length === 0) throw new Error('fRMSE: no samples');
  const N = grid.reduce((a, b) => a * b, 1), L = lengths.reduce((a, b) => a * b, 1);
  const K = sums[0]!.length;
  const per = Array.from({ length: K }, (_, k) => Math.sqrt(sums.reduce((s, e) => s + e[k]!, 0) / sums.length) / N * L);
  return { perWavenumber: per, bands: bandMeans(per) };
}

function bandMeans(per: readonly number[]): Bands {
  const { iLow, iHigh } = PDEBENCH_BANDS;
  const m = (a: number, b: number) => { const s = per.slice(a, b); return s.length ? s.reduce((x, y) => x + y, 0) / s.length : null; };
  return { low: m(0, iLow), mid: m(iLow, iHigh), high: m(iHigh, per.length) };
}

/** Truth power at or below this share of the total is rounding noise, not signal: no relative error is given there. */
const NO_POWER = 1e-20;
const powerFloor = (trueE: ArrayLike<number>) => NO_POWER * Array.from(trueE).reduce((a, b) => a + b, 0);

/** sqrt(sum E_err / sum E_true) over each band's shells (null where the band is empty or the truth has no power there). */
export function bandRelative(errE: ArrayLike<number>, trueE: ArrayLike<number>): Bands {
  const { iLow, iHigh } = PDEBENCH_BANDS;
  const floor = powerFloor(trueE);
  const r = (a: number, b: number) => {
    let e = 0, t = 0;
    for (let k = a; k < Math.min(b, errE.length); k++) { e += errE[k]!; t += trueE[k]!; }
    return b > a && a < errE.length && t > floor ? Math.sqrt(e / t) : null;
  };
  return { low: r(0, iLow), mid: r(iLow, iHigh), high: r(iHigh, errE.length) };
}

/** sqrt(E_err(k) / E_true(k)) per shell (null where the truth has no power). */
export function relativePerShell(errE: ArrayLike<number>, trueE: ArrayLike<number>): (number | null)[] {
  const floor = powerFloor(trueE);
  return Array.from({ length: errE.length }, (_, k) => (trueE[k]! > floor ? Math.sqrt(errE[k]! / trueE[k]!) : null));
}

export type SpectrumSummary = z.infer<typeof SpectrumSummarySchema>;
export type SpectrumReport = z.infer<typeof SpectrumReportSchema>;

type Field = { data: ArrayLike<number>; shape: readonly number[] };

const meanOf = (rows: readonly ArrayLike<number>[]) => {
  const K = rows[0]!.length;
  const out = new Array<number>(K).fill(0);
  for (const r of rows) for (let k = 0; k < K; k++) out[k]! += r[k]! / rows.length;
  return out;
};
const meanBands = (b: readonly Bands[]): Bands => {
  const m = (key: keyof Bands) => { const v = b.map((x) => x[key]); return v.some((x) => x === null) ? null : (v as number[]).reduce((s, x) => s + x, 0) / v.length; };
  return { low: m('low'), mid: m('mid'), high: m('high') };
};
function summary(err: readonly Float64Array[], tru: readonly Float64Array[], sums: readonly Float64Array[], grid: readonly number[]): SpectrumSummary {
  const e = meanOf(err), t = meanOf(tru);
  return { error: e, truth: t, relative: relativePerShell(e, t), bandRelative: bandRelative(e, t), fRmse: pdebenchFrmse(sums, grid).bands };
}

/**
 * The spectrum report of predictions against truths, both [n, ...grid, C] channels-last in physical
 * units; `indices` names each row (default 0..n-1).
 */
export function spectrumReport(pred: Field, truth: Field, indices?: readonly number[]): SpectrumReport {
  const shape = [...truth.shape];
  if (pred.shape.length !== shape.length || pred.shape.some((s, k) => s !== shape[k])) throw new Error(`spectrum: prediction shape ${pred.shape.join('x')} differs from the truth's ${shape.join('x')}`);
  const n = shape[0]!, grid = shape.slice(1, -1), C = shape[shape.length - 1]!;
  checkGrid(grid, 'spectrum');
  const P = grid.reduce((a, b) => a * b, 1);
  const err = new Float64Array(pred.data.length);
  for (let i = 0; i < err.length; i++) err[i] = pred.data[i]! - truth.data[i]!;
  // [channel][sample]
  const E: Float64Array[][] = [], T: Float64Array[][] = [], S: Float64Array[][] = [];
  for (let c = 0; c < C; c++) {
    E.push([]); T.push([]); S.push([]);
    for (let s = 0; s < n; s++) {
      const off = s * P * C + c;
      E[c]!.push(shellSpectrum(err, grid, off, C));
      T[c]!.push(shellSpectrum(truth.data, grid, off, C));
      S[c]!.push(pdebenchErrorSum(err, grid, off, C));
    }
  }
  const perChannel = Array.from({ length: C }, (_, c) => summary(E[c]!, T[c]!, S[c]!, grid));
  const perSample = Array.from({ length: n }, (_, s) => {
    const per = Array.from({ length: C }, (_, c) => summary([E[c]![s]!], [T[c]![s]!], [S[c]![s]!], grid));
    const e = meanOf(per.map((p) => p.error)), t = meanOf(per.map((p) => p.truth));
    return { index: indices?.[s] ?? s, error: e, truth: t, relative: relativePerShell(e, t), bandRelative: bandRelative(e, t), fRmse: meanBands(per.map((p) => p.fRmse)) };
  });
  const e = meanOf(perChannel.map((p) => p.error)), t = meanOf(perChannel.map((p) => p.truth));
  const mean = { error: e, truth: t, relative: relativePerShell(e, t), bandRelative: bandRelative(e, t), fRmse: meanBands(perChannel.map((p) => p.fRmse)) };
  return { grid, channels: C, bands: { ...PDEBENCH_BANDS }, mean, perChannel, perSample };
}
