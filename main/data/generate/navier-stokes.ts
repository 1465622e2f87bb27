// Navier-Stokes 2-D in vorticity form on the periodic unit square, as FNO's ns_2d.py:
//   w_t + u . grad w = nu Lap w + f,  u = (psi_y, -psi_x),  -Lap psi = w,
// pseudo-spectral, 2/3 dealiasing of the nonlinear term, Crank-Nicolson on the viscous term.
// x is the first array axis, y the second (ns_2d.py's k_x / k_y); f = A (sin(2 pi (x+y)) + cos(2 pi (x+y)))
// on x = j/s. Two explicit schemes for the nonlinear term and forcing:
//   'euler' : ns_2d.py's forward Euler step, fixed dt (paper: 1e-4 on 256^2);
//   'ab2'   : second-order Adams-Bashforth (CN/AB2), dt bounded per unit of time by a CFL number and by the
//             AB2 advection-diffusion stability limit; used by "quick"/"tiny" when no dt is given.
// Frames are recorded at t = 1..T (the first at t = 1, not t = 0).
import { sampleRng } from './rng';
import { nsGrf } from './grf';
import { Fft2T } from './fft';
import type { GeneratorParams, NavierStokesParams } from './presets';
import type { Sampler } from './samplers';

export interface NsOptions {
  nu: number;
  /** Forcing on the grid ([i * s + j]) or null for none. */
  forcing: Float64Array | null;
  frames: number;
  /** Time between recorded frames. */
  interval?: number;
  scheme: 'euler' | 'ab2';
  /** Fixed step (euler: required; ab2: optional, otherwise adaptive with cfl). */
  dt?: number | null;
  cfl?: number;
  /** Called after each recorded frame; return false to stop early. */
  onFrame?: (k: number) => boolean | void;
}

export interface NsRun { frames: Float64Array[]; steps: number; minDt: number; maxDt: number }

export function fnoForcing(s: number, amplitude: number): Float64Array {
  const f = new Float64Array(s * s);
  for (let i = 0; i < s; i++)
    for (let j = 0; j < s; j++) {
      const z = 2 * Math.PI * (i / s + j / s);
      f[i * s + j] = amplitude * (Math.sin(z) + Math.cos(z));
    }
  return f;
}

export function nsSolve(w0: Float64Array, s: number, o: NsOptions): NsRun {
  const n = s * s;
  // spectra are kept in Fft2T's transposed layout: storage [i][j] holds wavenumber (x: j, y: i)
  const fft = new Fft2T(s);
  const kmax = Math.floor(s / 2);
  const kx = new Float64Array(n), ky = new Float64Array(n), lap = new Float64Array(n), mask = new Float64Array(n);
  for (let i = 0; i < s; i++) {
    const a = i < kmax ? i : i - s;
    for (let j = 0; j < s; j++) {
      const b = j < kmax ? j : j - s;
      const p = i * s + j;
      // derivative multipliers drop the Nyquist wavenumber (keeps packed real transforms exact)
      kx[p] = 2 * b === -s ? 0 : 2 * Math.PI * b;
      ky[p] = 2 * a === -s ? 0 : 2 * Math.PI * a;
      lap[p] = 4 * Math.PI ** 2 * (a * a + b * b);
      mask[p] = Math.abs(a) <= (2 / 3) * kmax && Math.abs(b) <= (2 / 3) * kmax ? 1 : 0;
    }
  }
  lap[0] = 1;
  const invLap = new Float64Array(n);
  for (let p = 0; p < n; p++) invLap[p] = 1 / lap[p];
  // Crank-Nicolson factors, recomputed when dt changes: w <- (cnA w - cnB F)
  const cnA = new Float64Array(n), cnB = new Float64Array(n);
  let cnDt = -1;
  const w = new Float64Array(2 * n); // w_h
  for (let p = 0; p < n; p++) w[2 * p] = w0[p];
  fft.transform(w);
  const fh = new Float64Array(2 * n);
  if (o.forcing) {
    for (let p = 0; p < n; p++) fh[2 * p] = o.forcing[p];
    fft.transform(fh);
  }
  const z1 = new Float64Array(2 * n), z2 = new Float64Array(2 * n), F = new Float64Array(2 * n), Fold = new Float64Array(2 * n);
  let umax = 0;
  // F = dealias(FFT(u . grad w)) - f_h  (the explicit right-hand side, negated)
  const rhs = () => {
    for (let p = 0; p < n; p++) {
      const re = w[2 * p], im = w[2 * p + 1];
      const pr = re * invLap[p], pi = im * invLap[p];
      // z1 = psi_y + i (-psi_x): spectrum 2 pi psi (k_x + i k_y) written with the multipliers
      z1[2 * p] = kx[p] * pr - ky[p] * pi;
      z1[2 * p + 1] = kx[p] * pi + ky[p] * pr;
      // z2 = w_x + i w_y: spectrum w (i k_x - k_y)
      z2[2 * p] = -kx[p] * im - ky[p] * re;
      z2[2 * p + 1] = kx[p] * re - ky[p] * im;
    }
    fft.transform(z1, true);
    fft.transform(z2, true);
    umax = 0;
    for (let p = 0; p < n; p++) {
      const q = z1[2 * p], v = z1[2 * p + 1];
      const u2 = q * q + v * v;
      if (u2 > umax) umax = u2;
      F[2 * p] = q * z2[2 * p] + v * z2[2 * p + 1];
      F[2 * p + 1] = 0;
    }
    umax = Math.sqrt(umax);
    fft.transform(F);
    for (let p = 0; p < n; p++) {
      F[2 * p] = mask[p] * F[2 * p] - fh[2 * p];
      F[2 * p + 1] = mask[p] * F[2 * p + 1] - fh[2 * p + 1];
    }
  };
  const interval = o.interval ?? 1;
  const frames: Float64Array[] = [];
  let steps = 0, minDt = Infinity, maxDt = 0;
  let prevDt = 0; // 0: no history yet (AB2 starts with an Euler step)
  const out = new Float64Array(2 * n);
  for (let k = 0; k < o.frames; k++) {
    // choose the step for this interval
    let dt: number;
    let m: number;
    if (o.scheme === 'euler' || o.dt) {
      if (!o.dt) throw new Error('navier-stokes: the euler scheme needs a fixed dt');
      m = Math.max(1, Math.round(interval / o.dt));
      dt = interval / m;
    } else {
      rhs(); // for umax of the current state
      const cfl = o.cfl ?? 0.5;
      const u = Math.max(umax, 1e-12);
      // CFL on the grid and AB2's advection-diffusion bound ~ (nu / (k u^4))^(1/3) at the dealiasing limit
      const kd = 2 * Math.PI * (2 / 3) * kmax;
      const bound = Math.min(1 / (s * u), Math.cbrt((8 * o.nu * kd * kd) / (kd * u) ** 4));
      m = Math.max(1, Math.ceil(interval / (cfl * bound)));
      dt = interval / m;
    }
    minDt = Math.min(minDt, dt);
    maxDt = Math.max(maxDt, dt);
    if (dt !== cnDt) {
      cnDt = dt;
      for (let p = 0; p < n; p++) {
        const c = 0.5 * dt * o.nu * lap[p];
        cnA[p] = (1 - c) / (1 + c);
        cnB[p] = dt / (1 + c);
      }
    }
    for (let st = 0; st < m; st++) {
      rhs();
      if (o.scheme === 'ab2' && prevDt > 0) {
        const r = dt / prevDt;
        for (let q = 0; q < 2 * n; q++) {
          const fn = F[q];
          F[q] = (1 + r / 2) * fn - (r / 2) * Fold[q];
          Fold[q] = fn;
        }
      } else if (o.scheme === 'ab2') {
        Fold.set(F);
      }
      prevDt = dt;
      for (let p = 0; p < n; p++) {
        w[2 * p] = cnA[p] * w[2 * p] - cnB[p] * F[2 * p];
        w[2 * p + 1] = cnA[p] * w[2 * p + 1] - cnB[p] * F[2 * p + 1];
      }
      steps++;
    }
    out.set(w);
    fft.transform(out, true);
    const frame = new Float64Array(n);
    for (let p = 0; p < n; p++) frame[p] = out[2 * p];
    for (const v of frame) if (!Number.isFinite(v)) throw new Error(`navier-stokes: solution blew up before t = ${(k + 1) * interval} (dt = ${dt})`);
    frames.push(frame);
    if (o.onFrame?.(k) === false) break;
  }
  return { frames, steps, minDt, maxDt };
}

export function nsSample(seed: number, index: number, p: NavierStokesParams, report?: (fraction: number) => void): { a: Float32Array; u: Float32Array; steps: number; minDt: number; maxDt: number } {
  const S = p.solveResolution, s = p.resolution, T = p.frames;
  const r = S / s;
  // resolution transfer: the native solve grid's initial vorticity, refined or truncated to S
  const native = p.nativeGrid !== undefined && p.nativeGrid !== S ? { s0: p.nativeGrid, extra: sampleRng(seed, 'navier-stokes-refine', index) } : undefined;
  const w0 = nsGrf(sampleRng(seed, 'navier-stokes', index), S, p.alpha, p.tau, undefined, native);
  const run = nsSolve(w0, S, {
    nu: p.nu, forcing: p.forcing ? fnoForcing(S, p.forcing) : null, frames: T,
    scheme: p.dt ? 'euler' : 'ab2', dt: p.dt, cfl: p.cfl,
    onFrame: report ? (k) => report((k + 1) / T) : undefined,
  });
  // layout [s, s, T]: frame index last, as the published file
  const u = new Float32Array(s * s * T);
  for (let t = 0; t < T; t++) {
    const f = run.frames[t];
    for (let i = 0; i < s; i++) for (let j = 0; j < s; j++) u[(i * s + j) * T + t] = f[i * r * S + j * r];
  }
  // the initial vorticity at t = 0, strided like the frames (FNO's `a`)
  const a = new Float32Array(s * s);
  for (let i = 0; i < s; i++) for (let j = 0; j < s; j++) a[i * s + j] = w0[i * r * S + j * r];
  return { a, u, steps: run.steps, minDt: run.minDt, maxDt: run.maxDt };
}

export const navierStokesSampler: Sampler = {
  shapes: (p: GeneratorParams) => {
    const q = p as NavierStokesParams;
    return { a: [q.resolution, q.resolution], u: [q.resolution, q.resolution, q.frames] };
  },
  sample: (seed, index, p, report) => {
    if (p.benchmark !== 'navier-stokes') throw new Error('navier-stokes sampler: wrong parameters');
    const r = nsSample(seed, index, p, report);
    return { arrays: { a: r.a, u: r.u }, stats: { steps: r.steps, minDt: r.minDt, maxDt: r.maxDt } };
  },
  // ns_2d.py saves its record times as `t` (savemat stores the 1-D array as 1 x T): frames are at t = 1..T
  constants: (p: GeneratorParams) => {
    const T = (p as NavierStokesParams).frames;
    return { t: { data: Float32Array.from({ length: T }, (_, k) => k + 1), shape: [1, T] } };
  },
};
