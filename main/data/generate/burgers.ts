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
export function burgersSolve(u0: Float64Array, nu: number, T: number, cfl: number): BurgersRun {
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
  const phys = new Float64Array(n), spec = new Float64Array(n + 2);
  // N(v) = -(1/2) d/dx (u^2) in Fourier space, into out
  const N = (v: Float64Array, out: Float64Array) => {
    rfft.inverse(v, phys);
    for (let j = 0; j < n; j++) phys[j] *= phys[j];
    rfft.forward(phys, spec);
    for (let k = 0; k <= h; k++) {
      const re = spec[2 * k], im = spec[2 * k + 1];
      out[2 * k] = -kd[k] * im; // i * kd * (re + i im)
      out[2 * k + 1] = kd[k] * re;
    }
  };
  const L = n + 2;
  const v = new Float64Array(L);
  rfft.forward(u0, v);
  const a = new Float64Array(L), b = new Float64Array(L), c = new Float64Array(L), d = new Float64Array(L);
  const w = new Float64Array(L);
  for (let s = 0; s < steps; s++) {
    N(v, a);
    for (let q = 0; q < L; q++) w[q] = E[q >> 1] * (v[q] + (dt / 2) * a[q]);
    N(w, b);
    for (let q = 0; q < L; q++) w[q] = E[q >> 1] * v[q] + (dt / 2) * b[q];
    N(w, c);
    for (let q = 0; q < L; q++) w[q] = E2[q >> 1] * v[q] + dt * E[q >> 1] * c[q];
    N(w, d);
    for (let q = 0; q < L; q++) {
      const e = E[q >> 1], e2 = E2[q >> 1];
      v[q] = e2 * v[q] + (dt / 6) * (e2 * a[q] + 2 * e * (b[q] + c[q]) + d[q]);
    }
  }
  const uT = new Float64Array(n);
  rfft.inverse(v, uT);
  return { u0, uT, steps, dt };
}

export function burgersSample(seed: number, index: number, p: BurgersParams): { a: Float32Array; u: Float32Array; steps: number } {
  const rng = sampleRng(seed, 'burgers', index);
  const { alpha, beta } = grf1Coefficients(rng, p.modes, p.gamma, p.tau, p.sigma);
  const u0 = grf1Sample(alpha, beta, p.solveResolution);
  const run = burgersSolve(u0, p.nu, p.T, p.cfl);
  const r = p.solveResolution / p.resolution;
  const a = new Float32Array(p.resolution), u = new Float32Array(p.resolution);
  for (let j = 0; j < p.resolution; j++) { a[j] = u0[j * r]; u[j] = run.uT[j * r]; }
  return { a, u, steps: run.steps };
}

export const burgersSampler: Sampler = {
  shapes: (p: GeneratorParams) => ({ a: [(p as BurgersParams).resolution], u: [(p as BurgersParams).resolution] }),
  sample: (seed, index, p) => {
    if (p.benchmark !== 'burgers') throw new Error('burgers sampler: wrong parameters');
    const r = burgersSample(seed, index, p);
    return { arrays: { a: r.a, u: r.u }, stats: { steps: r.steps } };
  },
};
