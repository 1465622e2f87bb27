// Gaussian random fields exactly as FNO's generator code draws them (see docs/protocol.md):
//   - periodic 1-D (Burgers, MATLAB GRF1 "periodic"),
//   - cosine-transform 2-D (Darcy, MATLAB GRF with idct2),
//   - periodic 2-D (Navier-Stokes, ns_2d.py GaussianRF).
// Everything is computed in float64.
import type { Rng } from './rng';
import { Fft2, fftPlan, waveNumber } from './fft';

// ---------------------------------------------------------------- 1-D periodic (Burgers)

/** sqrt(2) * sigma * ((2 pi k)^2 + tau^2)^(-gamma/2), k = 1..K (index 0 unused). */
export function grf1Eigs(K: number, gamma: number, tau: number, sigma: number): Float64Array {
  const e = new Float64Array(K + 1);
  for (let k = 1; k <= K; k++) e[k] = Math.SQRT2 * Math.abs(sigma) * Math.pow((2 * Math.PI * k) ** 2 + tau * tau, -gamma / 2);
  return e;
}

/**
 * Cosine and sine coefficients alpha_k, beta_k (k = 1..K) of u0(x) = sum_k alpha_k cos(2 pi k x) + beta_k sin(2 pi k x).
 * Drawn in GRF1's order (all alpha, then all beta). GRF1 also shifts the field by half a period,
 * which does not change its law and is left out. With `native` (resolution transfer), the field
 * drawn with K0 modes, truncated or refined to K (the same continuous function for the shared modes).
 */
export function grf1Coefficients(rng: Rng, K: number, gamma: number, tau: number, sigma: number, native?: Grf1Native): { alpha: Float64Array; beta: Float64Array } {
  const e = grf1Eigs(K, gamma, tau, sigma);
  const alpha = new Float64Array(K + 1);
  const beta = new Float64Array(K + 1);
  if (!native || native.K0 === K) {
    for (let k = 1; k <= K; k++) alpha[k] = e[k] * rng.normal();
    for (let k = 1; k <= K; k++) beta[k] = e[k] * rng.normal();
    return { alpha, beta };
  }
  // the native draws (all alpha, then all beta, K0 of each), kept up to K
  const K0 = native.K0;
  for (let k = 1; k <= K0; k++) { const v = rng.normal(); if (k <= K) alpha[k] = e[k] * v; }
  for (let k = 1; k <= K0; k++) { const v = rng.normal(); if (k <= K) beta[k] = e[k] * v; }
  // the modes beyond K0 mode by mode, so a mode's draw does not depend on K
  for (let k = K0 + 1; k <= K; k++) {
    alpha[k] = e[k] * native.extra.normal();
    beta[k] = e[k] * native.extra.normal();
  }
  return { alpha, beta };
}

/** Where a 1-D field drawn with another number of modes comes from: the native K0 modes of `rng`, and the stream for the modes beyond. */
export interface Grf1Native {
  K0: number;
  extra: Rng;
}

/** The discrete Fourier spectrum (interleaved, numpy fft convention) of the field on x_j = j/s. */
export function grf1Spectrum(alpha: Float64Array, beta: Float64Array, s: number): Float64Array {
  const K = alpha.length - 1;
  if (K > s / 2) throw new Error(`grf1: ${K} modes do not fit on a grid of ${s} points (at most ${s / 2})`);
  const U = new Float64Array(2 * s);
  for (let k = 1; k <= K; k++) {
    if (2 * k === s) {
      U[2 * k] = s * alpha[k]; // Nyquist: both conjugate halves land in one bin; sin vanishes on the grid
      continue;
    }
    U[2 * k] = (s * alpha[k]) / 2;
    U[2 * k + 1] = (-s * beta[k]) / 2;
    U[2 * (s - k)] = (s * alpha[k]) / 2;
    U[2 * (s - k) + 1] = (s * beta[k]) / 2;
  }
  return U;
}

export function grf1Sample(alpha: Float64Array, beta: Float64Array, s: number): Float64Array {
  const U = grf1Spectrum(alpha, beta, s);
  const out = new Float64Array(2 * s);
  fftPlan(s).inverseTransform(out, U);
  const u = new Float64Array(s);
  for (let j = 0; j < s; j++) u[j] = out[2 * j];
  return u;
}

// ---------------------------------------------------------------- 2-D cosine transform (Darcy)

/** sqrt-eigenvalues tau^(alpha-1) (pi^2 |k|^2 + tau^2)^(-alpha/2) on the s x s cosine modes, [k1 * s + k2]. */
export function darcyGrfCoef(s: number, alpha: number, tau: number): Float64Array {
  const c = new Float64Array(s * s);
  for (let k1 = 0; k1 < s; k1++)
    for (let k2 = 0; k2 < s; k2++)
      c[k1 * s + k2] = Math.pow(tau, alpha - 1) * Math.pow(Math.PI ** 2 * (k1 * k1 + k2 * k2) + tau * tau, -alpha / 2);
  return c;
}

const idctCache = new Map<number, Float64Array>();
/** Orthonormal DCT-III (MATLAB idct) matrix M[n * s + k] = w(k) cos(pi (2n+1) k / (2s)). */
export function idctMatrix(s: number): Float64Array {
  let m = idctCache.get(s);
  if (m) return m;
  m = new Float64Array(s * s);
  for (let n = 0; n < s; n++)
    for (let k = 0; k < s; k++) m[n * s + k] = (k === 0 ? Math.sqrt(1 / s) : Math.sqrt(2 / s)) * Math.cos((Math.PI * (2 * n + 1) * k) / (2 * s));
  idctCache.set(s, m);
  return m;
}

/**
 * U = M L M^T, i.e. MATLAB idct2(L) for an s x s row-major L. O(s^3); the symmetry
 * M[s-1-n][k] = (-1)^k M[n][k] halves the work (even and odd k summed separately).
 */
export function idct2(L: Float64Array, s: number): Float64Array {
  const M = idctMatrix(s);
  const half = Math.ceil(s / 2);
  // T[k1][n2] = sum_k2 L[k1][k2] M[n2][k2]
  const T = new Float64Array(s * s);
  for (let k1 = 0; k1 < s; k1++) {
    const lo = k1 * s;
    for (let n2 = 0; n2 < half; n2++) {
      const mo = n2 * s;
      // four accumulators (two even, two odd k2) keep the floating-point pipeline busy
      let e = 0, o = 0, e2 = 0, o2 = 0, k2 = 0;
      for (; k2 + 3 < s; k2 += 4) {
        e += L[lo + k2] * M[mo + k2];
        o += L[lo + k2 + 1] * M[mo + k2 + 1];
        e2 += L[lo + k2 + 2] * M[mo + k2 + 2];
        o2 += L[lo + k2 + 3] * M[mo + k2 + 3];
      }
      for (; k2 < s; k2++) {
        if ((k2 & 1) === 0) e += L[lo + k2] * M[mo + k2];
        else o += L[lo + k2] * M[mo + k2];
      }
      e += e2;
      o += o2;
      T[lo + n2] = e + o;
      T[lo + s - 1 - n2] = e - o;
    }
  }
  // U[n1][n2] = sum_k1 M[n1][k1] T[k1][n2], rows n1 and s-1-n1 together
  const U = new Float64Array(s * s);
  const ev = new Float64Array(s), od = new Float64Array(s);
  for (let n1 = 0; n1 < half; n1++) {
    ev.fill(0);
    od.fill(0);
    for (let k1 = 0; k1 < s; k1++) {
      const m = M[n1 * s + k1];
      const to = k1 * s;
      const acc = (k1 & 1) === 0 ? ev : od;
      for (let n2 = 0; n2 < s; n2++) acc[n2] += m * T[to + n2];
    }
    const a = n1 * s, b = (s - 1 - n1) * s;
    for (let n2 = 0; n2 < s; n2++) {
      U[a + n2] = ev[n2] + od[n2];
      U[b + n2] = ev[n2] - od[n2];
    }
  }
  return U;
}

/**
 * Where a 2-D field drawn on another grid comes from: the grid `s0` whose s0 x s0 normals `rng` draws
 * (in that grid's order, as at s0), and the stream for the modes beyond s0 (when s > s0).
 */
export interface Grf2Native {
  s0: number;
  extra: Rng;
}

/**
 * The standard normals of the s x s cosine modes, [k1 * s + k2]: drawn in grid order by `rng` (FNO's
 * order), or, with `native`, the same normals as at s0 for the modes both grids have (the lowest
 * min(s, s0)^2) and, for the modes beyond s0, draws from `native.extra` ring by ring
 * (max(k1, k2) = s0, s0 + 1, ...), so a mode's draw does not depend on s either.
 */
function darcyNormals(rng: Rng, s: number, native?: Grf2Native): Float64Array {
  const xi = new Float64Array(s * s);
  if (!native || native.s0 === s) {
    for (let i = 0; i < s * s; i++) xi[i] = rng.normal();
    return xi;
  }
  const s0 = native.s0;
  const n = Math.min(s, s0);
  for (let k1 = 0; k1 < s0; k1++)
    for (let k2 = 0; k2 < s0; k2++) {
      const v = rng.normal();
      if (k1 < n && k2 < n) xi[k1 * s + k2] = v;
    }
  for (let m = s0; m < s; m++) {
    for (let j = 0; j < m; j++) {
      xi[m * s + j] = native.extra.normal();
      xi[j * s + m] = native.extra.normal();
    }
    xi[m * s + m] = native.extra.normal();
  }
  return xi;
}

/**
 * The Darcy GRF (before thresholding) on the s x s cell-centred grid, [i * s + j]. With `native`,
 * the same random field as drawn at s0, refined (the modes beyond s0 drawn afresh) or truncated to
 * s. The same mode is the same continuous function at every s: with the orthonormal DCT's weights
 * w_s(k) (sqrt(1/s) at k = 0, sqrt(2/s) else) and the s-scaled coefficients, mode (k1, k2) adds
 * s w_s(k1) w_s(k2) c(k1, k2) xi cos(pi k1 x) cos(pi k2 y) at the cell centres, and s w_s w_s is 2,
 * sqrt(2) or 1 whatever s is.
 */
export function darcyGrf(rng: Rng, s: number, alpha: number, tau: number, native?: Grf2Native): Float64Array {
  const coef = darcyGrfCoef(s, alpha, tau);
  const xi = darcyNormals(rng, s, native);
  const L = new Float64Array(s * s);
  for (let i = 0; i < s * s; i++) L[i] = s * coef[i] * xi[i];
  L[0] = 0;
  return idct2(L, s);
}

// ---------------------------------------------------------------- 2-D periodic (Navier-Stokes)

/** size^2 sqrt(2) sigma (4 pi^2 |k|^2 + tau^2)^(-alpha/2), k = 0 zeroed, on the FFT bins [i * s + j]. */
export function nsGrfSqrtEig(s: number, alpha: number, tau: number, sigma?: number): Float64Array {
  const sig = sigma ?? Math.pow(tau, 0.5 * (2 * alpha - 2));
  const e = new Float64Array(s * s);
  for (let i = 0; i < s; i++) {
    // ns_2d.py orders wavenumbers 0..s/2-1, -s/2..-1 (the Nyquist bin counts as -s/2)
    const kx = i < s / 2 ? i : i - s;
    for (let j = 0; j < s; j++) {
      const ky = j < s / 2 ? j : j - s;
      e[i * s + j] = s * s * Math.SQRT2 * sig * Math.pow(4 * Math.PI ** 2 * (kx * kx + ky * ky) + tau * tau, -alpha / 2);
    }
  }
  e[0] = 0;
  return e;
}

/** The FFT bin of wavenumber k on an s-point grid (ns_2d.py's order), or -1 when the grid has none. */
const binOf = (k: number, s: number) => (k >= 0 ? (k < s / 2 ? k : -1) : k >= -s / 2 ? k + s : -1);

/**
 * The complex normals of the s x s bins, interleaved: drawn in bin order by `rng` (ns_2d.py's order),
 * or, with `native`, those of the native s0 x s0 bins for the wavenumbers both grids have, and for
 * the others draws from `native.extra` ring by ring (max(|kx|, |ky|) = s0/2, s0/2 + 1, ...; every
 * wavenumber of a ring draws, whether s has it or not), so a wavenumber's draw does not depend on s.
 */
function nsNormals(rng: Rng, s: number, native?: Grf2Native): Float64Array {
  const z = new Float64Array(2 * s * s);
  if (!native || native.s0 === s) {
    for (let i = 0; i < 2 * s * s; i++) z[i] = rng.normal();
    return z;
  }
  const s0 = native.s0;
  for (let i0 = 0; i0 < s0; i0++)
    for (let j0 = 0; j0 < s0; j0++) {
      const re = rng.normal(), im = rng.normal();
      const kx = i0 < s0 / 2 ? i0 : i0 - s0, ky = j0 < s0 / 2 ? j0 : j0 - s0;
      const i = binOf(kx, s), j = binOf(ky, s);
      if (i < 0 || j < 0) continue;
      z[2 * (i * s + j)] = re;
      z[2 * (i * s + j) + 1] = im;
    }
  for (let m = s0 / 2; m <= s / 2; m++)
    for (let kx = -m; kx <= m; kx++)
      for (let ky = -m; ky <= m; ky++) {
        if (Math.max(Math.abs(kx), Math.abs(ky)) !== m || (binOf(kx, s0) >= 0 && binOf(ky, s0) >= 0)) continue;
        const re = native.extra.normal(), im = native.extra.normal();
        const i = binOf(kx, s), j = binOf(ky, s);
        if (i < 0 || j < 0) continue;
        z[2 * (i * s + j)] = re;
        z[2 * (i * s + j) + 1] = im;
      }
  return z;
}

/**
 * Real part of the inverse FFT of complex-normal coefficients times sqrt_eig: w0 on x = j/s, [i * s + j].
 * With `native`, the field drawn at s0 refined or truncated to s: sqrt_eig's s^2 and the inverse
 * FFT's 1/s^2 cancel, so a wavenumber is the same continuous function at every s.
 */
export function nsGrf(rng: Rng, s: number, alpha: number, tau: number, sigma?: number, native?: Grf2Native): Float64Array {
  const e = nsGrfSqrtEig(s, alpha, tau, sigma);
  const z = nsNormals(rng, s, native);
  const c = new Float64Array(2 * s * s);
  for (let i = 0; i < s * s; i++) {
    c[2 * i] = e[i] * z[2 * i];
    c[2 * i + 1] = e[i] * z[2 * i + 1];
  }
  new Fft2(s).transform(c, true);
  const w = new Float64Array(s * s);
  for (let i = 0; i < s * s; i++) w[i] = c[2 * i];
  return w;
}

export { waveNumber };
