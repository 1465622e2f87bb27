// Where a run's data comes from (a run config's `data`) and the benchmarks the generators make:
// zod schemas only (no I/O, no tensors), re-exported for the renderer by main/api/contract.ts.
import { z } from 'zod';

/** The benchmarks the generators make (main/data/generate): the one list every layer uses. */
export const BENCHMARKS = ['darcy', 'burgers', 'navier-stokes', 'airfoil'] as const;
export const Benchmark = z.enum(BENCHMARKS);
export type Benchmark = z.infer<typeof Benchmark>;

/** Pipeline options shared by the data specs that go through main/data/pipeline.ts. */
export function pipelineFields() {
  return {
    /** Split sizes; default: the release's (scaled 80/20 when the source is smaller). Seed 42. */
    train: z.number().int().min(1).optional(),
    val: z.number().int().min(1).optional(),
    test: z.number().int().min(0).optional(),
    splitSeed: z.number().int().optional(),
    /** Training resolution (resize as the release does); default: the release's per benchmark. */
    resolution: z.union([z.number().int().min(2), z.array(z.number().int().min(2))]).optional(),
    /** Navier-Stokes: history and rollout lengths; normalizer 'separate' or 'shared' (default: the release's 'separate', DEFAULT_NS_NORMALIZER in main/data/pipeline.ts). */
    tIn: z.number().int().min(1).optional(),
    tOut: z.number().int().min(1).optional(),
    nsNormalizer: z.enum(['separate', 'shared']).optional(),
  };
}


export const SyntheticData = z.object({
  kind: z.literal('synthetic'),
  task: z.enum(['operator', 'autoregressive']).default('operator'),
  grid: z.array(z.number().int().min(2).max(1024)).min(1).max(2),
  train: z.number().int().min(1),
  val: z.number().int().min(1),
  test: z.number().int().min(0).default(0),
  seed: z.number().int().default(0),
  /** autoregressive: history frames in, frames rolled out. */
  tIn: z.number().int().min(1).default(3),
  tOut: z.number().int().min(1).default(3),
}).strict();

/** A benchmark made by the generators (main/data/generate), prepared by the data pipeline. */
export const GenerateData = z.object({
  kind: z.literal('generate'),
  benchmark: Benchmark,
  preset: z.enum(['tiny', 'quick', 'paper']).default('quick'),
  /** Generator overrides. */
  samples: z.number().int().min(2).optional(),
  generateResolution: z.number().int().min(2).optional(),
  frames: z.number().int().min(2).optional(),
  seed: z.number().int().min(0).optional(),
  ...pipelineFields(),
}).strict();
/** A prepared dataset stored in the workspace (datasets/<id>/, main/data/dataset-store.ts). */
export const StoredData = z.object({ kind: z.literal('dataset'), id: z.string().min(1).max(200) }).strict();
/** A data file (.mat, .npy, .npz, .h5) or airfoil folder, prepared by the data pipeline. */
export const FileData = z.object({
  kind: z.literal('file'),
  path: z.string().min(1).max(4096),
  benchmark: z.enum([...BENCHMARKS, 'custom']),
  input: z.array(z.string()).optional(),
  target: z.string().optional(),
  ...pipelineFields(),
}).strict();

/** Where a run's data comes from. 'synthetic' is a smooth analytic map for smoke tests, not a benchmark. */
export const DataSpec = z.discriminatedUnion('kind', [SyntheticData, GenerateData, StoredData, FileData]);
export type DataSpec = z.infer<typeof DataSpec>;
