// FFT helpers on top of fft.js (radix-4, power-of-two sizes, interleaved re/im arrays).
// fft.js uses the forward kernel exp(-2 pi i jk/n) and scales the inverse by 1/n (numpy's convention).
// 2-D transforms are done as row passes then column passes.
import FFT from 'fft.js';

const cache = new Map<number, FFT>();
export function fftPlan(n: number): FFT {
  if (n < 2 || (n & (n - 1)) !== 0) throw new Error(`fft: size ${n} is not a power of two >= 2`);
  let f = cache.get(n);
  if (!f) {
    f = new FFT(n);
    cache.set(n, f);
  }
  return f;
}

/** In-place style 2-D complex FFT of an n x n interleaved array (row-major); returns `data`. */
export class Fft2 {
  readonly n: number;
  private readonly plan: FFT;
  private readonly tmpIn: Float64Array;
  private readonly tmpOut: Float64Array;
  constructor(n: number) {
    this.n = n;
    this.plan = fftPlan(n);
    this.tmpIn = new Float64Array(2 * n);
    this.tmpOut = new Float64Array(2 * n);
  }

  /** Forward (inverse = false) or inverse (scaled by 1/n^2) transform, in place. */
  transform(data: Float64Array, inverse = false): Float64Array {
    const n = this.n;
    const p = this.plan;
    const a = this.tmpIn;
    const b = this.tmpOut;
    const rowLen = 2 * n;
    for (let r = 0; r < n; r++) {
      const row = data.subarray(r * rowLen, (r + 1) * rowLen);
      a.set(row);
      if (inverse) p.inverseTransform(b, a);
      else p.transform(b, a);
      row.set(b);
    }
    for (let c = 0; c < n; c++) {
      for (let r = 0; r < n; r++) {
        const k = r * rowLen + 2 * c;
        a[2 * r] = data[k];
        a[2 * r + 1] = data[k + 1];
      }
      if (inverse) p.inverseTransform(b, a);
      else p.transform(b, a);
      for (let r = 0; r < n; r++) {
        const k = r * rowLen + 2 * c;
        data[k] = b[2 * r];
        data[k + 1] = b[2 * r + 1];
      }
    }
    return data;
  }
}

/** Signed integer wavenumber of FFT bin j of an n-point transform (numpy's fftfreq * n). */
export function waveNumber(j: number, n: number): number {
  return j <= (n - 1) / 2 ? j : j - n;
}

/**
 * 2-D complex FFT without column gathers: row transforms, a transpose, row transforms again. The
 * forward result is the TRANSPOSED spectrum S[ky][kx] (first index = wavenumber of the second axis);
 * `inverse` takes a spectrum in that layout and returns the field in normal layout. Spectral
 * operations that are elementwise only need their wavenumber tables built in the same layout.
 * Interleaved re/im; inverse scaled by 1/n^2.
 */
export class Fft2T {
  readonly n: number;
  private readonly plan: FFT;
  private readonly tmp: Float64Array;
  private readonly views = new WeakMap<Float64Array, Float64Array[]>();
  constructor(n: number) {
    this.n = n;
    this.plan = fftPlan(n);
    this.tmp = new Float64Array(2 * n * n);
  }
  private rows(a: Float64Array): Float64Array[] {
    let v = this.views.get(a);
    if (!v) {
      const n = this.n;
      v = Array.from({ length: n }, (_, r) => a.subarray(2 * n * r, 2 * n * (r + 1)));
      this.views.set(a, v);
    }
    return v;
  }
  /** data -> transposed spectrum (forward) or transposed spectrum -> field (inverse), in place. */
  transform(data: Float64Array, inverse = false): Float64Array {
    const n = this.n, p = this.plan, tmp = this.tmp;
    const src = this.rows(data), dst = this.rows(tmp);
    for (let r = 0; r < n; r++) {
      if (inverse) p.inverseTransform(dst[r], src[r]);
      else p.transform(dst[r], src[r]);
    }
    // data = tmp^T
    for (let r = 0; r < n; r++) {
      for (let c = 0; c < n; c++) {
        const a = 2 * (r * n + c), b = 2 * (c * n + r);
        data[b] = tmp[a];
        data[b + 1] = tmp[a + 1];
      }
    }
    for (let r = 0; r < n; r++) {
      if (inverse) p.inverseTransform(dst[r], src[r]);
      else p.transform(dst[r], src[r]);
    }
    data.set(tmp);
    return data;
  }
}

/** Real FFT of length n via fft.js's complex transform of length n/2; spectra hold bins 0..n/2 interleaved. */
export class RealFft {
  readonly n: number;
  private readonly h: number;
  private readonly plan: FFT;
  private readonly z: Float64Array;
  private readonly Z: Float64Array;
  private readonly wr: Float64Array;
  private readonly wi: Float64Array;
  constructor(n: number) {
    if (n < 4 || (n & (n - 1)) !== 0) throw new Error(`rfft: size ${n} is not a power of two >= 4`);
    this.n = n;
    this.h = n / 2;
    this.plan = fftPlan(this.h);
    this.z = new Float64Array(n);
    this.Z = new Float64Array(n);
    this.wr = new Float64Array(this.h + 1);
    this.wi = new Float64Array(this.h + 1);
    for (let k = 0; k <= this.h; k++) {
      this.wr[k] = Math.cos((2 * Math.PI * k) / n);
      this.wi[k] = -Math.sin((2 * Math.PI * k) / n);
    }
  }
  /** X[k] = sum_j x[j] exp(-2 pi i jk/n), k = 0..n/2, into X (length n + 2, interleaved). */
  forward(x: Float64Array, X: Float64Array): void {
    const { h, Z, wr, wi } = this;
    // the real input read as h complex numbers (x[2m] + i x[2m+1])
    this.plan.transform(Z, x);
    for (let k = 0; k <= h; k++) {
      const a = k === h ? 0 : k, b = k === 0 ? 0 : h - k;
      const zar = Z[2 * a], zai = Z[2 * a + 1], zbr = Z[2 * b], zbi = Z[2 * b + 1];
      // E = (Z[k] + conj Z[h-k]) / 2 ; O = (Z[k] - conj Z[h-k]) / (2i)
      const er = (zar + zbr) / 2, ei = (zai - zbi) / 2;
      const or = (zai + zbi) / 2, oi = -(zar - zbr) / 2;
      X[2 * k] = er + wr[k] * or - wi[k] * oi;
      X[2 * k + 1] = ei + wr[k] * oi + wi[k] * or;
    }
  }
  /** x = irfft(X) (scaled 1/n) for the Hermitian spectrum given by bins 0..n/2. */
  inverse(X: Float64Array, x: Float64Array): void {
    this.inverseOddNegated(X, x);
    for (let m = 1; m < this.n; m += 2) x[m] = -x[m];
  }

  /** irfft(X) with every odd-indexed sample negated (enough for callers that only square it). */
  inverseOddNegated(X: Float64Array, x: Float64Array): void {
    const { h, z, wr, wi } = this;
    const inv = 1 / h;
    for (let k = 0; k < h; k++) {
      const b = h - k;
      const xkr = X[2 * k], xki = X[2 * k + 1], xbr = X[2 * b], xbi = X[2 * b + 1];
      const er = (xkr + xbr) / 2, ei = (xki - xbi) / 2;
      const dr = (xkr - xbr) / 2, di = (xki + xbi) / 2;
      const or = dr * wr[k] + di * wi[k], oi = di * wr[k] - dr * wi[k];
      // Z = E + i O; store conj(Z) / h so that a forward transform gives conj(ifft(Z)) (no division pass)
      z[2 * k] = (er - oi) * inv;
      z[2 * k + 1] = -(ei + or) * inv;
    }
    this.plan.transform(x, z); // x[2m] = even samples, x[2m+1] = -(odd samples)
  }
}

/**
 * Complex FFT of any length n >= 1 (interleaved re/im, forward kernel exp(-2 pi i jk/n), unscaled,
 * numpy's fft). Powers of two go straight to fft.js; other lengths (the Darcy grids are 2^k + 1) through
 * Bluestein's chirp-z identity jk = (j^2 + k^2 - (k - j)^2) / 2, a convolution done with fft.js at a
 * power of two >= 2n - 1. Diagnostics use it; the solvers keep their own power-of-two transforms.
 */
export class AnyFft {
  readonly n: number;
  private readonly plan: FFT | null;
  private readonly m: number;
  private readonly chirp: Float64Array; // w_j = exp(-i pi j^2 / n), interleaved
  private readonly kernelHat: Float64Array; // FFT of conj(w) laid out circularly
  private readonly a: Float64Array;
  private readonly b: Float64Array;
  constructor(n: number) {
    if (!Number.isInteger(n) || n < 1) throw new Error(`fft: size ${n} is not a positive integer`);
    this.n = n;
    const pow2 = n >= 2 && (n & (n - 1)) === 0;
    this.m = pow2 ? n : 2 ** Math.ceil(Math.log2(2 * n - 1 || 1));
    this.plan = n === 1 ? null : fftPlan(Math.max(2, this.m));
    this.chirp = new Float64Array(2 * n);
    this.kernelHat = new Float64Array(2 * this.m);
    this.a = new Float64Array(2 * Math.max(2, this.m));
    this.b = new Float64Array(2 * Math.max(2, this.m));
    if (pow2 || n === 1) return;
    for (let j = 0; j < n; j++) {
      // j^2 mod 2n keeps the phase argument small (exact for any n this grid sees)
      const ph = (Math.PI * ((j * j) % (2 * n))) / n;
      this.chirp[2 * j] = Math.cos(ph);
      this.chirp[2 * j + 1] = -Math.sin(ph);
    }
    const k = new Float64Array(2 * this.m);
    for (let j = 0; j < n; j++) {
      const re = this.chirp[2 * j], im = -this.chirp[2 * j + 1];
      k[2 * j] = re; k[2 * j + 1] = im;
      if (j > 0) { k[2 * (this.m - j)] = re; k[2 * (this.m - j) + 1] = im; }
    }
    this.plan!.transform(this.kernelHat, k);
  }

  /** out = FFT(input); both interleaved, length 2n; out may not alias input. */
  transform(out: Float64Array, input: Float64Array): void {
    const { n, m, plan } = this;
    if (n === 1) { out[0] = input[0]; out[1] = input[1]; return; }
    if (m === n) { plan!.transform(out, input); return; }
    const { a, b, chirp: w, kernelHat: K } = this;
    a.fill(0);
    for (let j = 0; j < n; j++) {
      const xr = input[2 * j], xi = input[2 * j + 1], wr = w[2 * j], wi = w[2 * j + 1];
      a[2 * j] = xr * wr - xi * wi;
      a[2 * j + 1] = xr * wi + xi * wr;
    }
    plan!.transform(b, a);
    for (let q = 0; q < m; q++) {
      const br = b[2 * q], bi = b[2 * q + 1], kr = K[2 * q], ki = K[2 * q + 1];
      b[2 * q] = br * kr - bi * ki;
      b[2 * q + 1] = br * ki + bi * kr;
    }
    plan!.inverseTransform(a, b);
    for (let k = 0; k < n; k++) {
      const cr = a[2 * k], ci = a[2 * k + 1], wr = w[2 * k], wi = w[2 * k + 1];
      out[2 * k] = cr * wr - ci * wi;
      out[2 * k + 1] = cr * wi + ci * wr;
    }
  }
}

/** Unscaled forward FFT of a real field on a 1-D or 2-D row-major grid; interleaved complex result in numpy's fftn layout. */
export function fftReal(field: ArrayLike<number>, grid: readonly number[], offset = 0, stride = 1): Float64Array {
  if (grid.length < 1 || grid.length > 2) throw new Error(`fft: grid ${grid.join('x')} is not 1-D or 2-D`);
  const n0 = grid[0]!, n1 = grid.length === 2 ? grid[1]! : 1;
  const out = new Float64Array(2 * n0 * n1);
  for (let p = 0; p < n0 * n1; p++) out[2 * p] = field[offset + p * stride]!;
  const rowsOf = (n: number, count: number, at: (r: number, j: number) => number) => {
    const f = new AnyFft(n);
    const src = new Float64Array(2 * n), dst = new Float64Array(2 * n);
    for (let r = 0; r < count; r++) {
      for (let j = 0; j < n; j++) { const q = at(r, j); src[2 * j] = out[q]; src[2 * j + 1] = out[q + 1]; }
      f.transform(dst, src);
      for (let j = 0; j < n; j++) { const q = at(r, j); out[q] = dst[2 * j]; out[q + 1] = dst[2 * j + 1]; }
    }
  };
  if (n1 > 1) rowsOf(n1, n0, (r, j) => 2 * (r * n1 + j));
  rowsOf(n0, n1, (c, i) => 2 * (i * n1 + c));
  return out;
}
