// FNO's declaration for the contract and the Model view (no tfjs; see ../kinds.ts).
import { z } from 'zod';
import type { ModelKindDeclaration } from '../kinds';
import { fnoConfigSchema, fnoDefaults } from './config';

export const fnoKind = {
  kind: 'fno',
  title: 'FNO (Fourier Neural Operator, Li et al. 2021)',
  name: 'FNO',
  fields: [
    { field: 'width', label: 'Width', min: 1, max: 1024, hint: 'channels of the lifted field' },
    { field: 'modes', label: 'Modes', min: 1, max: 1024, hint: 'lowest Fourier modes kept per axis' },
    { field: 'depth', label: 'Fourier layers', min: 1, max: 64, hint: 'spectral convolution + pointwise skip, GELU between' },
  ],
  defaults: (benchmark) => ({ ...fnoDefaults(benchmark), depth: 4 }),
  benchmarkSizing: (benchmark) => fnoDefaults(benchmark),
  runFields: {
    /** FNO: Fourier modes kept per axis; default per benchmark (Burgers 16, Darcy and Navier-Stokes 12). */
    modes: z.number().int().min(1).max(1024).optional(),
  },
  // width 32 (Darcy, Navier-Stokes; Burgers uses 64) and 4 Fourier layers
  runDefaults: { width: 32, depth: 4 },
  builder: fnoConfigSchema.omit({ seed: true }).extend({ kind: z.literal('fno') }),
  // a run's depth is FNO's number of Fourier layers; modes default per benchmark
  fromRun: (m, c) => ({ dims: c.dims, inChannels: c.inChannels, outChannels: c.outChannels, width: m.width, modes: m.modes ?? fnoDefaults(c.benchmark).modes, layers: m.depth ?? 4, seed: c.seed }),
  describe: (m) => `FNO, width ${m.width}, modes ${m.modes ?? 'per benchmark'}, ${m.depth} Fourier layers`,
  summary: (m) => `FNO width ${m.width}, modes ${m.modes ?? 'per benchmark'}, ${m.depth} Fourier layers`,
  runName: (m) => `FNO width ${m.width} modes ${m.modes ?? 'per benchmark'}`,
} satisfies ModelKindDeclaration<'fno'>;
