// What the light-map calls answer (runs.lightMaps, runs.lightMapsCorrelation): zod schemas only,
// re-exported for the renderer by main/api/contract.ts.
import { z } from 'zod';

/** runs.lightMaps: one sample's light maps, per block, flattened row-major over `grid`. */
const LightMapBranch = z.enum(['reflection', 'refraction', 'scattering']);
export const LightMapsResult = z.object({
  runId: z.string(),
  checkpoint: z.enum(['best', 'last']),
  split: z.enum(['train', 'val', 'test']),
  sample: z.number(),
  /** Samples in the split. */
  samples: z.number(),
  grid: z.array(z.number()),
  benchmark: z.string(),
  /** The model's input channels as it sees them (normalized), coordinates left out. */
  input: z.array(z.array(z.number())),
  /** Curvilinear-mesh data (airfoil): the sample's node coordinates as stored, row-major over `grid`. */
  mesh: z.object({ x: z.array(z.number()), y: z.array(z.number()) }).optional(),
  query: z.array(z.number()).optional(),
  blocks: z.array(z.object({
    /** The block's enabled branches; `gates` and `dominant` index into it. */
    components: z.array(LightMapBranch),
    gates: z.array(z.number()),
    reflectionActivity: z.array(z.number()).optional(),
    refractionActivity: z.array(z.number()).optional(),
    contribution: z.partialRecord(LightMapBranch, z.array(z.number())),
    dominant: z.array(z.number()),
    latentNorm: z.array(z.number()),
    /** The query point's global scattering kernel row; efficient scattering marks its local neighbourhood with beta. */
    kernel: z.object({ row: z.array(z.number()), local: z.object({ indices: z.array(z.number()), beta: z.number() }).optional() }).optional(),
  })),
});
export type LightMapsResult = z.infer<typeof LightMapsResult>;

/** A 'lightmaps-correlation' job's result (runs.lightMapsCorrelation): the table of `lino lightmaps --correlate`. */
export const LIGHT_MAP_CORRELATED = ['reflectionActivity', 'refractionActivity', 'reflection', 'refraction', 'scattering'] as const;
export const LightMapsCorrelationResult = z.object({
  runId: z.string(),
  checkpoint: z.enum(['best', 'last']),
  split: z.enum(['train', 'val', 'test']),
  /** Samples correlated. */
  samples: z.number(),
  /** Per block, the maps it has (a switched-off branch has none); r is null where undefined (a constant map). */
  blocks: z.array(z.object({
    block: z.number(),
    maps: z.array(z.object({
      map: z.enum(LIGHT_MAP_CORRELATED),
      /** r over every point of every sample. */
      pooled: z.number().nullable(),
      /** Mean and std (population) of each sample's own r. */
      mean: z.number().nullable(),
      std: z.number().nullable(),
      /** Samples whose own r is defined. */
      n: z.number(),
    })),
  })),
});
export type LightMapsCorrelationResult = z.infer<typeof LightMapsCorrelationResult>;
