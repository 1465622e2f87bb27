// What the dataset calls answer (datasets.sample, datasets.stats): zod schemas only, re-exported
// for the renderer by main/api/contract.ts.
import { z } from 'zod';

/** A stored dataset's id as the dataset store makes them: no path separators, no leading dot. */
export const DatasetId = z.string().max(128).regex(/^[A-Za-z0-9][A-Za-z0-9._-]*$/, 'a dataset id');

export const DatasetSample = z.object({
  id: z.string(),
  benchmark: z.string(),
  split: z.enum(['train', 'val', 'test']),
  index: z.number(),
  /** Rows in this split, and in each split. */
  count: z.number(),
  counts: z.object({ train: z.number(), val: z.number(), test: z.number() }),
  grid: z.array(z.number()),
  /** Physical (de-normalized) input and target channels; coordinate channels are left out. */
  x: z.array(z.object({ name: z.string(), values: z.array(z.number()) })),
  y: z.array(z.object({ name: z.string(), values: z.array(z.number()) })),
  /** Source sample this row comes from. */
  sourceIndex: z.number(),
  warnings: z.array(z.string()),
  /** Dataset statistics (physical units, training split) behind the normalizer. */
  stats: z.object({
    x: z.object({ mean: z.number(), std: z.number(), min: z.number(), max: z.number() }),
    y: z.object({ mean: z.number(), std: z.number(), min: z.number(), max: z.number() }),
    normalized: z.boolean(),
  }),
});
export type DatasetSample = z.infer<typeof DatasetSample>;

/** null: the split has no rows. */
const ChannelStats = z.object({ name: z.string(), min: z.number().nullable(), max: z.number().nullable(), mean: z.number().nullable(), std: z.number().nullable() });
export const DatasetStats = z.object({
  id: z.string(),
  split: z.enum(['train', 'val', 'test']),
  count: z.number(),
  grid: z.array(z.number()),
  /** Physical (decoded) per-channel statistics over every point of every row of the split; coordinates left out. */
  x: z.array(ChannelStats),
  y: z.array(ChannelStats),
});
export type DatasetStats = z.infer<typeof DatasetStats>;
