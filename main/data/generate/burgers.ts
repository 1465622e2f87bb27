// Burgers 1-D, u_t + (u^2/2)_x = nu u_xx on the periodic unit interval, as FNO's data: GRF1 initial data,
// pseudo-spectral on a fine grid, stored values strided. Time stepping: diffusion exactly through an
// integrating factor, the nonlinear term explicitly with classical RK4 (IF-RK4, Trefethen's kdv.m form),
// 2/3 dealiasing of the nonlinear term, dt from a CFL bound (max|u| never grows for Burgers).
import { sampleRng } from './rng';
import { grf1Coefficients, grf1Sample } from './grf';
import { RealFft } from './fft';
import type { BurgersParams, GeneratorParams } from './presets';
import type { Sampler } from './samplers';

export interface BurgersRun { u0: Float64Array; uT: Float64Array; steps: number; dt: number }

/** Integrates u0 (n points, x_j = j/n) to time T. */
export function burgersSolve(u0: Float64Array, nu: number, T: number, cfl: number, report?: (fraction: number) => void): BurgersRun {
  const n = u0.length;
  const h = n / 2;
  const rfft = new RealFft(n);
  let umax = 0;
  for (const v of u0) umax = Math.max(umax, Math.abs(v));
  const dt0 = umax > 0 ? (cfl / n) / umax : T;
  const steps = Math.max(1, Math.ceil(T / dt0));
  const dt = T / steps;
  // half spectra (bins 0..n/2, interleaved): the solution is real
  const kd = new Float64Array(h + 1); // -(1/2) * 2 pi k, zero beyond the 2/3 dealiasing limit and at Nyquist
  const E = new Float64Array(h + 1), E2 = new Float64Array(h + 1);
  for (let k = 0; k <= h; k++) {
    const kk = 2 * Math.PI * k;
    E[k] = Math.exp((-nu * kk * kk * dt) / 2);
    E2[k] = E[k] * E[k];
    kd[k] = k < n / 3 && k !== h ? -0.5 * kk : 0;
  }
  const phys = new Float64Array(n);
  // N(v) = -(1/2) d/dx (u^2) in Fourier space, into out (the multiplier i kd is applied in place)
  const N = (v: Float64Array, out: Float64Array) => {
    rfft.inverseOddNegated(v, phys); // the sign flip of odd samples disappears in the square
    for (let j = 0; j < n; j++) phys[j] *= phys[j];
    rfft.forward(phys, out);
    for (let k = 0; k <= h; k++) {
      const re = out[2 * k], im = out[2 * k + 1];
      out[2 * k] = -kd[k] * im;
      out[2 * k + 1] = kd[k] * re;
    }
  };
  const L = n + 2;
  const v = new Float64Array(L);
  rfft.forward(u0, v);
  const a = new Float64Array(L), b = new Float64Array(L), c = new Float64Array(L), d = new Float64Array(L);
  const w = new Float64Array(L);
  const hdt = dt / 2, sdt = dt / 6;
  for (let s = 0; s < steps; s++) {
    if (report && s % 256 === 0) report(s / steps);
    N(v, a);
    for (let k = 0; k <= h; k++) {
      const e = E[k], q = 2 * k;
      w[q] = e * (v[q] + hdt * a[q]);
      w[q + 1] = e * (v[q + 1] + hdt * a[q + 1]);
    }
    N(w, b);
    for (let k = 0; k <= h; k++) {
      const e = E[k], q = 2 * k;
      w[q] = e * v[q] + hdt * b[q];
      w[q + 1] = e * v[q + 1] + hdt * b[q + 1];
    }
    N(w, c);
    for (let k = 0; k <= h; k++) {
      const e = E[k], e2 = E2[k], q = 2 * k;
      w[q] = e2 * v[q] + dt * e * c[q];
      w[q + 1] = e2 * v[q + 1] + dt * e * c[q + 1];
    }
    N(w, d);
    for (let k = 0; k <= h; k++) {
      const e = E[k], e2 = E2[k], q = 2 * k;
      v[q] = e2 * v[q] + sdt * (e2 * a[q] + 2 * e * (b[q] + c[q]) + d[q]);
      v[q + 1] = e2 * v[q + 1] + sdt * (e2 * a[q + 1] + 2 * e * (b[q + 1] + c[q + 1]) + d[q + 1]);
    }
  }
  const uT = new Float64Array(n);
  rfft.inverse(v, uT);
  return { u0, uT, steps, dt };
}

export function burgersSample(seed: number, index: number, p: BurgersParams, report?: (fraction: number) => void): { a: Float32Array; u: Float32Array; steps: number } {
  const rng = sampleRng(seed, 'burgers', index);
  // resolution transfer: the native solve grid's modes kept, those beyond from the sample's own stream
  const K0 = p.nativeGrid !== undefined ? p.nativeGrid / 2 : p.modes;
  const native = K0 !== p.modes ? { K0, extra: sampleRng(seed, 'burgers-refine', index) } : undefined;
  const { alpha, beta } = grf1Coefficients(rng, p.modes, p.gamma, p.tau, p.sigma, native);
  const u0 = grf1Sample(alpha, beta, p.solveResolution);
  const run = burgersSolve(u0, p.nu, p.T, p.cfl, report);
  const r = p.solveResolution / p.resolution;
  const a = new Float32Array(p.resolution), u = new Float32Array(p.resolution);
  for (let j = 0; j < p.resolution; j++) { a[j] = u0[j * r]; u[j] = run.uT[j * r]; }
  return { a, u, steps: run.steps };
}

export const burgersSampler: Sampler = {
  shapes: (p: GeneratorParams) => ({ a: [(p as BurgersParams).resolution], u: [(p as BurgersParams).resolution] }),
  sample: (seed, index, p, report) => {
    if (p.benchmark !== 'burgers') throw new Error('burgers sampler: wrong parameters');
    const r = burgersSample(seed, index, p, report);
    return { arrays: { a: r.a, u: r.u }, stats: { steps: r.steps } };
  },
};
