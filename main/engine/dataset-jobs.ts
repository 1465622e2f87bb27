// The dataset jobs: generate a benchmark from a preset into the workspace's dataset store, import a
// user's file (each a job with progress, ETA and cancel). The calls answered at once (presets, a
// sample, a file's listing) are in ./dataset-call.ts. The generators, pipeline and store are the data
// layer's (main/data); this file only wires them to the API.
import { ApiError } from '../api/api-error';
import { generateDataset } from '../data/generate/index';
import type { BenchmarkName } from '../data/generate/types';
import { DatasetStore } from '../data/dataset-store';
import { generatedWindow, pipelineOptions } from '../train/data-source';
import type { JobContext } from './jobs';
import type { JobParams } from './job-params';
import { inspectWithDeadline, type Listing } from '../data/formats/index';
import { DEFAULT_NS_NORMALIZER, releaseOptions } from '../data/pipeline';
import { groupVariables, type SourceLayout } from '../data/stages/layout';
import type { PipelineOptions } from '../data/dataset';
import { basename } from 'node:path';
import { defaultTestCount, type SplitRequest } from '../data/stages/split';

export function generateLabel(p: JobParams['generate']): string {
  return `Generate ${p.benchmark} (${p.preset}${p.samples ? `, ${p.samples} samples` : ''})`;
}

/**
 * The split counts and seed the user gave (generate and import), with a test split by default
 * (`defaultTestCount`, main/data/stages/split.ts): a dataset made in the app always has one.
 */
export function askedSplit(params: { train?: number; val?: number; test?: number; splitSeed?: number }, samples: number): SplitRequest {
  const { train, val } = params;
  const test = params.test ?? defaultTestCount(samples, { ...(train !== undefined ? { train } : {}), ...(val !== undefined ? { val } : {}) });
  const seed = params.splitSeed;
  return { ...(train !== undefined ? { train } : {}), ...(val !== undefined ? { val } : {}), test, ...(seed !== undefined ? { seed } : {}) };
}

/** Generation takes ~95% of the time; splitting, normalizing and storing the rest. */
export async function runGenerate(params: JobParams['generate'], ctx: JobContext) {
  const workspace = params.workspace;
  if (!workspace) throw new ApiError('generate: no workspace folder given', 'invalid_params', { field: 'workspace' });
  const benchmark: BenchmarkName = params.benchmark;
  const preset = params.preset;
  const opt = <F extends 'samples' | 'seed' | 'resolution'>(k: F) => (params[k] === undefined ? {} : { [k]: params[k] });
  const ds = await generateDataset(
    benchmark,
    { preset, ...opt('samples'), ...opt('seed'), ...opt('resolution') },
    { signal: ctx.signal, onProgress: (p) => ctx.progress(p.total ? (0.95 * p.done) / p.total : 0, p.message) },
  );
  if (ctx.signal.aborted) throw new Error('cancelled');
  const n = Object.values(ds.variables)[0]?.shape[0] ?? 0;
  // a Navier-Stokes set is prepared with the window it was generated for (its manifest's tIn / tOut)
  const split = askedSplit(params, n);
  const opts = pipelineOptions({ kind: 'generate', benchmark, preset, ...opt('resolution'), ...split, ...(split.seed !== undefined ? { splitSeed: split.seed } : {}) } as never, n, generatedWindow(ds.manifest));
  // Keep the generated grid unless the user asked for another (as training does for tiny/quick).
  if (params.resolution === undefined && preset !== 'paper') delete opts.resolution;
  ctx.progress(0.96, 'splitting, normalizing and storing');
  const { dataset, cached } = await new DatasetStore(workspace).prepare({ kind: 'generated', dataset: ds }, opts);
  const m = dataset.manifest;
  return { id: m.id, cached, counts: m.counts, grid: m.grid, xChannels: m.xChannels, yChannels: m.yChannels };
}

export function importLabel(p: JobParams['import']): string {
  return `Import ${basename(p.path)} (${p.benchmark})`;
}

/**
 * An import's first step, the file's listing (in a worker with a deadline). Done in the engine thread
 * before the import's job worker starts (`listing` in its params): a listing worker started from the
 * job's worker takes half as long again under the tests' TypeScript loader and missed its deadline.
 */
export async function importListing(params: JobParams['import'], ctx: JobContext): Promise<Listing> {
  const { path } = params;
  if (!path) throw new ApiError('import: no file given', 'invalid_params', { field: 'file' });
  ctx.progress(0.02, 'reading the file listing');
  return inspectWithDeadline(path, undefined, ctx.signal);
}

/** A chosen file through the pipeline into the dataset store, with the user's variable mapping. */
export async function runImport(params: JobParams['import'] & { listing?: Listing }, ctx: JobContext) {
  const { workspace, path } = params;
  if (!workspace || !path) throw new ApiError('import: no workspace or file given', 'invalid_params', { field: workspace ? 'file' : 'workspace' });
  const benchmark: PipelineOptions['benchmark'] = params.benchmark;
  const { input, target } = params;
  const layout: SourceLayout | undefined = params.layout;
  const listing = params.listing ?? (await importListing(params, ctx));
  const vars = layout?.groups ? groupVariables(listing.variables) : listing.variables;
  const first = vars.find((v) => v.name === target);
  if (!first) throw new ApiError(`${path}: variable '${target}' not found (the file has ${vars.map((v) => v.name).join(', ')})`, 'invalid_params', { field: 'target', file: path });
  // samples: the first axis as read (the last one as stored when the axes are reversed)
  const samples = (layout?.axisOrder === 'reversed' && !layout.groups ? first.shape[first.shape.length - 1] : first.shape[0]) ?? 0;
  // Split sizes by the one rule (main/data/stages/split.ts), the counts the user gave kept.
  const opts = releaseOptions(benchmark, samples, askedSplit(params, samples));
  const t = layout?.time;
  if (t?.mode === 'autoregressive') opts.ns = { normalizer: DEFAULT_NS_NORMALIZER, ...opts.ns, tIn: t.tIn, tOut: t.tOut };
  if (params.resolution !== undefined) opts.resolution = params.resolution;
  if (ctx.signal.aborted) throw new Error('cancelled');
  ctx.progress(0.05, 'splitting, resizing, normalizing and storing');
  const { dataset, cached } = await new DatasetStore(workspace).prepare({ kind: 'file', path, input, target, ...(layout ? { layout } : {}) }, opts, {
    onProgress: (pr) => ctx.progress(0.05 + (0.9 * pr.done) / Math.max(1, pr.total), pr.stage),
  });
  const m = dataset.manifest;
  return { id: m.id, cached, counts: m.counts, grid: m.grid, xChannels: m.xChannels, yChannels: m.yChannels };
}
