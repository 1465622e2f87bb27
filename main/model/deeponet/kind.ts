// DeepONet's declaration for the contract and the Model view (no tfjs; see ../kinds.ts).
import { z } from 'zod';
import type { ModelKindDeclaration } from '../kinds';
import { deepOnetConfigSchema } from './config';

/** The paper's Burgers baseline: branch and trunk 8 layers of width 128, basis 128. */
const PAPER = { width: 128, depth: 8, basis: 128 };

export const deepOnetKind = {
  kind: 'deeponet',
  title: 'DeepONet (Lu et al. 2021)',
  name: 'DeepONet',
  fields: [
    { field: 'width', label: 'Width', min: 1, max: 1024, hint: 'hidden layers of branch and trunk' },
    { field: 'depth', label: 'Layers', min: 1, max: 64, hint: 'fully connected layers of branch and of trunk, ReLU between' },
    { field: 'basis', label: 'Basis', symbol: 'p', min: 1, max: 1024, hint: 'basis functions per output channel' },
  ],
  defaults: () => ({ ...PAPER }),
  runFields: {
    /** DeepONet: basis functions per output channel (p; 128 when omitted). */
    basis: z.number().int().min(1).max(4096).optional(),
  },
  runDefaults: { width: PAPER.width, depth: PAPER.depth },
  builder: deepOnetConfigSchema.omit({ seed: true }).extend({ kind: z.literal('deeponet') }),
  // a run's depth is the layers of each net; the grid is the data's (before the data are read, as
  // in the runner's first preflight, one point per axis: the count then leaves out the branch's
  // grid-wide first layer, and the plan made once the data are read counts it)
  fromRun: (m, c) => ({ dims: c.dims, inChannels: c.inChannels, outChannels: c.outChannels, grid: c.grid ?? new Array<number>(c.dims).fill(1), width: m.width, layers: m.depth ?? PAPER.depth, basis: m.basis ?? PAPER.basis, seed: c.seed }),
  describe: (m) => `DeepONet, width ${m.width}, ${m.depth} layers each for branch and trunk, basis p = ${m.basis ?? PAPER.basis}`,
  summary: (m) => `DeepONet width ${m.width}, ${m.depth} layers, p=${m.basis ?? PAPER.basis}`,
  runName: (m) => `DeepONet width ${m.width} p=${m.basis ?? PAPER.basis}`,
} satisfies ModelKindDeclaration<'deeponet'>;
