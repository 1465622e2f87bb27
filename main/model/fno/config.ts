// FNO configuration (Li et al. 2021): the registry's config object and the CLI's model.json shape.
import { z } from 'zod';

export interface FnoConfig {
  dims: 1 | 2;
  inChannels: number;
  outChannels: number;
  width: number;
  /** Fourier modes kept per axis (2D: modes rows of each sign, modes columns). */
  modes: number;
  /** Fourier layers (the paper's 4). */
  layers: number;
  /** Hidden width of the projection fc1 -> GELU -> fc2 (the original's 128). */
  projection: number;
  seed?: number;
}

const positiveInt = z.number().int().positive();

export const fnoConfigSchema = z
  .object({
    dims: z.union([z.literal(1), z.literal(2)]),
    inChannels: positiveInt,
    outChannels: positiveInt,
    width: positiveInt.default(32),
    modes: positiveInt.default(12),
    layers: positiveInt.default(4),
    projection: positiveInt.default(128),
    seed: z.number().int().optional(),
  })
  .strict();

/** FNO's published defaults per benchmark (Burgers: modes 16, width 64; Darcy and Navier-Stokes: modes 12, width 32). */
export function fnoDefaults(benchmark?: string): { modes: number; width: number } {
  return benchmark === 'burgers' ? { modes: 16, width: 64 } : { modes: 12, width: 32 };
}

/** Validates and normalises; errors name the source, the field and what was expected. */
export function parseFnoConfig(raw: unknown, source = 'config'): FnoConfig {
  const r = fnoConfigSchema.safeParse(raw);
  if (!r.success) throw new Error(r.error.issues.map((i) => `${source}: field '${i.path.join('.') || '(root)'}': ${i.message}`).join('; '));
  return r.data;
}
