// The Navier-Stokes vorticity equation between two frames, discretized like the generator
// (main/data/generate/navier-stokes.ts: pseudo-spectral on the periodic unit square, x the first axis,
// u = (psi_y, -psi_x), -Lap psi = w, the nonlinear term dealiased by the 2/3 rule, derivative
// multipliers without the Nyquist wavenumber, f = A (sin 2 pi (x + y) + cos 2 pi (x + y))):
//   R = (w1 - w0) / dt - [ f - u.grad(wm) + nu Lap(wm) ],  wm = (w0 + w1) / 2 (the midpoint rule),
// and the relative number ||R|| / ||f - u.grad(wm) + nu Lap(wm)||: 0 when the frames' change is what the
// equation asks for, about 1 when it is unrelated to it. Frames one time unit apart (the stored data)
// carry the two-point difference's own error: the truth's value beside the prediction's shows its size.
import { Fft2 } from '../../data/generate/fft';
import { fnoForcing } from '../../data/generate/navier-stokes';

export interface VorticityResidual { map: Float64Array; relative: number }

export class VorticityResidualOp {
  private readonly fft: Fft2;
  private readonly kx: Float64Array;
  private readonly ky: Float64Array;
  private readonly lap: Float64Array;
  private readonly mask: Float64Array;
  private readonly f: Float64Array;
  constructor(readonly s: number, readonly nu: number, forcing: number, readonly dt: number) {
    if (s < 4 || (s & (s - 1)) !== 0) throw new Error(`vorticity residual: grid ${s} x ${s} is not a power of two (the generator's grids are)`);
    this.fft = new Fft2(s);
    const n = s * s, kmax = Math.floor(s / 2);
    this.kx = new Float64Array(n); this.ky = new Float64Array(n); this.lap = new Float64Array(n); this.mask = new Float64Array(n);
    for (let i = 0; i < s; i++) {
      const a = i < kmax ? i : i - s;
      for (let j = 0; j < s; j++) {
        const b = j < kmax ? j : j - s;
        const p = i * s + j;
        this.kx[p] = 2 * a === -s ? 0 : 2 * Math.PI * a;
        this.ky[p] = 2 * b === -s ? 0 : 2 * Math.PI * b;
        this.lap[p] = 4 * Math.PI ** 2 * (a * a + b * b);
        this.mask[p] = Math.abs(a) <= (2 / 3) * kmax && Math.abs(b) <= (2 / 3) * kmax ? 1 : 0;
      }
    }
    this.f = forcing ? fnoForcing(s, forcing) : new Float64Array(n);
  }

  /** Spectrum of a real field (interleaved), normal layout. */
  private spectrum(v: ArrayLike<number>): Float64Array {
    const z = new Float64Array(2 * v.length);
    for (let p = 0; p < v.length; p++) z[2 * p] = v[p]!;
    return this.fft.transform(z);
  }
  /** Real part of the inverse transform of (multiplier m times i^ipow) applied to spectrum w. */
  private field(w: Float64Array, m: (p: number) => number, times_i: boolean): Float64Array {
    const n = this.s * this.s, z = new Float64Array(2 * n);
    for (let p = 0; p < n; p++) {
      const c = m(p);
      if (times_i) { z[2 * p] = -c * w[2 * p + 1]!; z[2 * p + 1] = c * w[2 * p]!; } else { z[2 * p] = c * w[2 * p]!; z[2 * p + 1] = c * w[2 * p + 1]!; }
    }
    this.fft.transform(z, true);
    return Float64Array.from({ length: n }, (_, p) => z[2 * p]!);
  }

  apply(w0: ArrayLike<number>, w1: ArrayLike<number>): VorticityResidual {
    const n = this.s * this.s;
    const wm = Float64Array.from({ length: n }, (_, p) => (w0[p]! + w1[p]!) / 2);
    const W = this.spectrum(wm);
    const { kx, ky, lap } = this;
    const inv = (p: number) => (lap[p] === 0 ? 0 : 1 / lap[p]!);
    const u = this.field(W, (p) => ky[p]! * inv(p), true); // psi_y
    const v = this.field(W, (p) => -kx[p]! * inv(p), true); // -psi_x
    const wx = this.field(W, (p) => kx[p]!, true), wy = this.field(W, (p) => ky[p]!, true);
    const adv = Float64Array.from({ length: n }, (_, p) => u[p]! * wx[p]! + v[p]! * wy[p]!);
    const advD = this.field(this.spectrum(adv), (p) => this.mask[p]!, false); // 2/3 dealiasing
    const lapW = this.field(W, (p) => -lap[p]!, false);
    const map = new Float64Array(n);
    let rr = 0, qq = 0;
    for (let p = 0; p < n; p++) {
      const rhs = this.f[p]! - advD[p]! + this.nu * lapW[p]!;
      map[p] = (w1[p]! - w0[p]!) / this.dt - rhs;
      rr += map[p]! ** 2;
      qq += rhs * rhs;
    }
    return { map, relative: qq > 0 ? Math.sqrt(rr / qq) : Math.sqrt(rr) };
  }
}
