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
