// LiNO configuration: the model.json shape of the CLI and the registry's config object.
import { z } from 'zod';

export const COMPONENTS = ['reflection', 'refraction', 'scattering'] as const;
export type Component = (typeof COMPONENTS)[number];
export type ScatteringKind = 'efficient' | 'full';

export interface LinoConfig {
  dims: 1 | 2;
  inChannels: number;
  outChannels: number;
  width: number;
  depth: number;
  scattering: ScatteringKind;
  /** Enabled branches, always in the order reflection, refraction, scattering. */
  components: Component[];
  /** Seed of the initial weights (PyTorch-default uniform). */
  seed?: number;
}

const positiveInt = z.number().int().positive();

export const linoConfigSchema = z
  .object({
    dims: z.union([z.literal(1), z.literal(2)]),
    inChannels: positiveInt,
    outChannels: positiveInt,
    width: positiveInt,
    depth: positiveInt,
    // 'standard' is the release's name for the full (pairwise) variant.
    scattering: z.enum(['efficient', 'full', 'standard']).default('efficient'),
    components: z.array(z.enum(COMPONENTS)).min(1).default([...COMPONENTS]),
    seed: z.number().int().optional(),
  })
  .strict();

/** Validates and normalises; errors name the source, the field and what was expected. */
export function parseLinoConfig(raw: unknown, source = 'config'): LinoConfig {
  const r = linoConfigSchema.safeParse(raw);
  if (!r.success) {
    const msg = r.error.issues.map((i) => `${source}: field '${i.path.join('.') || '(root)'}': ${i.message}`).join('; ');
    throw new Error(msg);
  }
  const c = r.data;
  const set = new Set(c.components);
  if (set.size !== c.components.length) throw new Error(`${source}: field 'components': duplicate entries in [${c.components.join(', ')}]`);
  return {
    dims: c.dims,
    inChannels: c.inChannels,
    outChannels: c.outChannels,
    width: c.width,
    depth: c.depth,
    scattering: c.scattering === 'standard' ? 'full' : c.scattering,
    components: COMPONENTS.filter((k) => set.has(k)),
    ...(c.seed !== undefined ? { seed: c.seed } : {}),
  };
}
