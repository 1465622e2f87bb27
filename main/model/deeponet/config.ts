// DeepONet configuration (unstacked DeepONet, Lu et al. 2021): the registry's config object and the
// CLI's model.json shape. `grid` is the sensor grid: the branch takes every point of it, so a model
// is built for one resolution.
import { z } from 'zod';

export interface DeepOnetConfig {
  dims: 1 | 2;
  inChannels: number;
  outChannels: number;
  /** Points per axis of the input (and output) grid. */
  grid: number[];
  /** Width of the hidden layers of branch and trunk. */
  width: number;
  /** Fully connected layers of each of branch and trunk (the paper's 8). */
  layers: number;
  /** Basis functions per output channel (p, the paper's 128). */
  basis: number;
  seed?: number;
}

const positiveInt = z.number().int().positive();

export const deepOnetConfigSchema = z
  .object({
    dims: z.union([z.literal(1), z.literal(2)]),
    inChannels: positiveInt,
    outChannels: positiveInt,
    grid: z.array(positiveInt).min(1).max(2),
    width: positiveInt.default(128),
    layers: positiveInt.default(8),
    basis: positiveInt.default(128),
    seed: z.number().int().optional(),
  })
  .strict();

/** Validates and normalises; errors name the source, the field and what was expected. */
export function parseDeepOnetConfig(raw: unknown, source = 'config'): DeepOnetConfig {
  const r = deepOnetConfigSchema.safeParse(raw);
  if (!r.success) throw new Error(r.error.issues.map((i) => `${source}: field '${i.path.join('.') || '(root)'}': ${i.message}`).join('; '));
  const c = r.data;
  if (c.grid.length !== c.dims) throw new Error(`${source}: field 'grid': expected ${c.dims} axis sizes for a ${c.dims}D model, got [${c.grid.join(', ')}]`);
  return c as DeepOnetConfig;
}

/** Points of the grid (the branch's input is points * inChannels wide). */
export function gridPoints(grid: readonly number[]): number {
  return grid.reduce((a, b) => a * b, 1);
}
