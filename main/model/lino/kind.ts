// LiNO's declaration for the contract and the Model view (no tfjs; see ../kinds.ts).
import { z } from 'zod';
import type { ModelKindDeclaration } from '../kinds';

/** A LiNO configuration as the model builder edits it (the engine validates it fully). */
const linoBuilder = z
  .object({
    // optional: LiNO configs from before the registry carry no kind
    kind: z.literal('lino').optional(),
    dims: z.union([z.literal(1), z.literal(2)]),
    inChannels: z.number().int().min(1).max(64),
    outChannels: z.number().int().min(1).max(64),
    width: z.number().int().min(1).max(1024),
    depth: z.number().int().min(1).max(64),
    scattering: z.enum(['efficient', 'full']),
    components: z.array(z.enum(['reflection', 'refraction', 'scattering'])).min(1, 'at least one of reflection, refraction, scattering').max(3),
  })
  .strict();

const components = (m: Record<string, unknown>) => (m.components as string[] | undefined) ?? [];

export const linoKind = {
  kind: 'lino',
  title: 'LiNO (Light-inspired Neural Operator)',
  name: 'LiNO',
  fields: [
    { field: 'width', label: 'Width', symbol: 'M', min: 1, max: 1024, hint: 'channels of the latent field' },
    { field: 'depth', label: 'Depth', symbol: 'L', min: 1, max: 64, hint: 'light-evolution blocks' },
  ],
  defaults: () => ({ width: 32, depth: 4 }),
  runFields: {},
  runDefaults: {},
  builder: linoBuilder,
  fromRun: (m, c) => ({ dims: c.dims, inChannels: c.inChannels, outChannels: c.outChannels, width: m.width, depth: m.depth, scattering: m.scattering, components: m.components, seed: c.seed }),
  describe: (m) => `LiNO, M = ${m.width}, L = ${m.depth}, ${m.scattering} scattering, ${components(m).join(' + ')}`,
  summary: (m) => `LiNO M=${m.width} L=${m.depth}, ${components(m).join('+')}${components(m).includes('scattering') ? ` (${m.scattering} scattering)` : ''}`,
  runName: (m) => `LiNO M=${m.width} L=${m.depth}`,
} satisfies ModelKindDeclaration<'lino'>;
