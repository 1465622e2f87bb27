// Resolves a run's data specification (TrainConfig.data) to the arrays the trainer consumes:
// synthetic smoke data, a generated benchmark (main/data/generate) or a data file, the last two
// through the data pipeline (main/data/pipeline.ts: split, resize, windows, normalizer, coordinates).
import type { DataSpec } from '../data/data-spec';
import type { TrainData } from './data';
import { syntheticDataAsync } from './synthetic-data';
import { generateDataset } from '../data/generate/index';
import { DEFAULT_NS_NORMALIZER, countSamples, prepareDataset, releaseOptions, type DataSource } from '../data/pipeline';
import type { PipelineOptions } from '../data/dataset';
import type { BenchmarkName, GenerateOptions } from '../data/generate/types';
import { DatasetStore, contentHash } from '../data/dataset-store';
import type { PreparedDataset } from '../data/dataset';

export interface DataContext {
  workspace?: string;
  /** Keep a generated set in the workspace's datasets/ (a run's training data; not evaluations' other grids). */
  keepGenerated?: boolean;
  signal?: AbortSignal;
  onProgress?: (message: string) => void;
}

type PipelineSpec = Extract<DataSpec, { kind: 'generate' | 'file' }>;

/**
 * The release's pipeline options for the benchmark, with the spec's overrides (split sizes by the
 * one rule, stages/split.ts). `window`: the Navier-Stokes window a generated set was made for (its
 * manifest's params), used unless the spec sets one.
 */
export function pipelineOptions(spec: PipelineSpec, samples: number, window?: { tIn?: number; tOut?: number }): PipelineOptions {
  const asked = {
    ...(spec.train !== undefined ? { train: spec.train } : {}),
    ...(spec.val !== undefined ? { val: spec.val } : {}),
    ...(spec.test !== undefined ? { test: spec.test } : {}),
    ...(spec.splitSeed !== undefined ? { seed: spec.splitSeed } : {}),
  };
  const base = releaseOptions(spec.benchmark, samples, asked);
  const o: PipelineOptions = { ...base };
  if (spec.resolution !== undefined) o.resolution = spec.resolution;
  if (spec.benchmark === 'navier-stokes') {
    o.ns = { tIn: spec.tIn ?? window?.tIn ?? base.ns?.tIn ?? 10, tOut: spec.tOut ?? window?.tOut ?? base.ns?.tOut ?? 10, normalizer: spec.nsNormalizer ?? DEFAULT_NS_NORMALIZER };
  }
  return o;
}

export async function loadTrainData(spec: DataSpec, ctx: DataContext = {}): Promise<TrainData> {
  switch (spec.kind) {
    case 'synthetic':
      return syntheticDataAsync(spec, ctx.signal);
    case 'generate': {
      const prepared = await generatedData(spec.benchmark as BenchmarkName, generateOptionsOf(spec), (n, m) => {
        const opts = pipelineOptions(spec, n, generatedWindow(m));
        if (spec.resolution === undefined && spec.preset !== 'paper') delete opts.resolution; // keep the generated grid
        return opts;
      }, ctx);
      if (ctx.workspace && ctx.keepGenerated) {
        // With a workspace the generated set is kept in datasets/ like one from the Datasets view, so
        // the data a run (a quick start) trained on can be previewed, exported and reused.
        const store = new DatasetStore(ctx.workspace);
        // Generated again from the same spec, the arrays are the same: recorded as the stored set.
        const same = store.findSame(prepared);
        if (same) Object.assign(prepared.manifest, { id: same.id, contentHash: same.contentHash });
        else store.save(prepared);
      }
      return withHash(prepared);
    }
    case 'file': {
      const source: DataSource = { kind: 'file', path: spec.path, ...(spec.input ? { input: spec.input } : {}), ...(spec.target ? { target: spec.target } : {}) };
      // The split is sized from the file's sample count (its listing), by the same rule as everywhere.
      const opts = pipelineOptions(spec, await countSamples(source, spec.benchmark));
      return withHash(await prepareDataset(source, opts, { onWarning: (m) => ctx.onProgress?.(`warning: ${m}`) }));
    }
    case 'dataset': {
      if (!ctx.workspace) throw new Error(`data: field 'id': dataset '${spec.id}' needs a workspace to be looked up in`);
      return (await new DatasetStore(ctx.workspace).open(spec.id)) as unknown as TrainData;
    }
  }
}

/** The generator's options a generate spec asks for (its overrides of the preset). */
export function generateOptionsOf(spec: Extract<DataSpec, { kind: 'generate' }>): GenerateOptions {
  return {
    preset: spec.preset,
    ...(spec.samples !== undefined ? { samples: spec.samples } : {}),
    ...(spec.generateResolution !== undefined ? { resolution: spec.generateResolution } : {}),
    ...(spec.frames !== undefined ? { frames: spec.frames } : {}),
    ...(spec.seed !== undefined ? { seed: spec.seed } : {}),
    ...(spec.benchmark === 'navier-stokes' && spec.tIn !== undefined ? { tIn: spec.tIn } : {}),
    ...(spec.benchmark === 'navier-stokes' && spec.tOut !== undefined ? { tOut: spec.tOut } : {}),
  };
}

/**
 * A benchmark generated and prepared by the pipeline: the one way generated data reach a run, a
 * reproduction and a transfer evaluation solved at another grid. `optionsFor` gets the generated
 * sample count and the generator's manifest.
 */
export async function generatedData(
  benchmark: BenchmarkName,
  options: GenerateOptions,
  optionsFor: (samples: number, generator: Record<string, unknown>) => PipelineOptions,
  ctx: DataContext = {},
): Promise<PreparedDataset> {
  const ds = await generateDataset(benchmark, options, { signal: ctx.signal, onProgress: (p) => ctx.onProgress?.(p.message ?? `generating ${p.done}/${p.total}`) });
  const source: DataSource = { kind: 'generated', dataset: ds };
  return prepareDataset(source, optionsFor(firstDim(ds.variables), ds.manifest), { onWarning: (m: string) => ctx.onProgress?.(`warning: ${m}`) });
}

/** The Navier-Stokes training window a generator manifest records (params.tIn / params.tOut). */
export function generatedWindow(manifest: Record<string, unknown>): { tIn?: number; tOut?: number } | undefined {
  const p = manifest.params as { tIn?: unknown; tOut?: unknown } | undefined;
  if (!p || typeof p.tIn !== 'number' || typeof p.tOut !== 'number') return undefined;
  return { tIn: p.tIn, tOut: p.tOut };
}

function firstDim(vars: Record<string, { shape: readonly number[] }>): number {
  const v = Object.values(vars)[0];
  return v ? v.shape[0]! : 0;
}

/** Prepared data with the content hash of its arrays in the manifest (recorded in the run's config). */
function withHash(ds: PreparedDataset): TrainData {
  if (!ds.manifest.contentHash) {
    const arrays: Record<string, PreparedDataset['train']['x']> = {};
    for (const s of ['train', 'val', 'test'] as const) {
      arrays[`${s}_x`] = ds[s].x;
      arrays[`${s}_y`] = ds[s].y;
    }
    ds.manifest.contentHash = contentHash(arrays);
  }
  return ds as unknown as TrainData;
}
