// One entry per benchmark: the stored variables (per-sample shape, as in the published files) and
// the function that produces sample `index` from the seed. Shared by the worker threads and the
// in-thread path, so both give the same bytes.
import type { BenchmarkName } from './types';
import type { DarcyParams, GeneratorParams } from './presets';
import { darcySample } from './darcy';

export interface SampleResult {
  arrays: Record<string, Float32Array>;
  /** Per-sample solver figures (iterations, residual, steps ...), summarized in the manifest. */
  stats: Record<string, number>;
}

export interface Sampler {
  /** Variable name -> shape of one sample. */
  shapes(p: GeneratorParams): Record<string, number[]>;
  /** `report(fraction)` may be called during a long sample (e.g. per recorded frame). */
  sample(seed: number, index: number, p: GeneratorParams, report?: (fraction: number) => void): SampleResult;
  /** Variables that are not per sample (Navier-Stokes `t`), written after the per-sample ones. */
  constants?(p: GeneratorParams): Record<string, { data: Float32Array; shape: number[] }>;
}

export const SAMPLERS: Record<BenchmarkName, () => Promise<Sampler>> = {
  darcy: async () => ({
    shapes: (p) => {
      const s = (p as DarcyParams).resolution;
      return { coeff: [s, s], sol: [s, s] };
    },
    sample: (seed, index, p) => {
      if (p.benchmark !== 'darcy') throw new Error('darcy sampler: wrong parameters');
      const r = darcySample(seed, index, p);
      return { arrays: { coeff: r.coeff, sol: r.sol }, stats: { iterations: r.stats.iterations, relResidual: r.stats.relResidual, minNodalCoefficient: r.stats.minCoef } };
    },
  }),
  burgers: async () => (await import('./burgers')).burgersSampler,
  'navier-stokes': async () => (await import('./navier-stokes')).navierStokesSampler,
  airfoil: async () => (await import('./airfoil')).airfoilSampler,
};
