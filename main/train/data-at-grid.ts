// A run's data at another grid, for resolution transfer (evaluate-run.ts): solved at that grid by the
// workbench's generator (the same generator options, seed and split as the native data; Darcy's
// coefficient the native sample's random field at N, the reference solved at N), or resampled from the native grid (a data
// file prepared again, or the stored arrays interpolated). Only "solved" is a super-resolution test;
// docs/reproduction.md says why. Solved sets are kept in the workspace (datasets/.solved/, hidden
// from the dataset list) so a second evaluation at the same grid reuses them.
import { createHash } from 'node:crypto';
import { join } from 'node:path';
import type { DataSpec } from '../data/data-spec';
import type { DatasetManifest, PreparedDataset } from '../data/dataset';
import { DatasetStore } from '../data/dataset-store';
import { DEFAULT_SEED, resolveParams } from '../data/generate/index';
import type { BenchmarkName, GenerateOptions } from '../data/generate/types';
import { gridOrigin, gridSide, preparedAtResolution } from '../data/resize-prepared';
import { generatorRecord, whyNotSolvedDataset, whyNotSolvedSpec, type GeneratorRecord, type TransferSource } from '../data/transfer-source';
import { errorMessage } from '../util/error-message';
import type { TrainData } from './data';
import { generatedData, generatedWindow, generateOptionsOf, loadTrainData, pipelineOptions } from './data-source';

export interface GridData {
  data: TrainData;
  /** How this grid's data were made, as the sweep table and the figure caption say it. */
  origin: string;
  source: TransferSource;
}

export interface GridContext {
  workspace: string;
  split: 'train' | 'val' | 'test';
  signal?: AbortSignal;
  onProgress?: (message: string) => void;
}

/** Folder of the solved sets under the workspace's datasets/ (a dot folder: the dataset list skips it). */
export const SOLVED_FOLDER = '.solved';

type GenerateSpec = Extract<DataSpec, { kind: 'generate' }>;

/** What the generator is asked to solve at a grid: its options and the pipeline options for the generated count. */
interface SolvePlan {
  benchmark: BenchmarkName;
  options: GenerateOptions;
  pipeline: (samples: number, generator: Record<string, unknown>) => PreparedDataset['manifest']['parameters'];
  /** Says who made the data, for the provenance: "darcy 'tiny', generator seed 0". */
  who: string;
}

/**
 * The option that keeps each sample's random field across grids: Darcy's coefficient, Burgers'
 * initial condition and Navier-Stokes' initial vorticity drawn as at the native solve grid, refined
 * or truncated at the new one (docs/reproduction.md).
 */
function nativeGridOf(benchmark: string, params: Record<string, unknown>): Pick<GenerateOptions, 'nativeGrid'> {
  if (benchmark !== 'darcy' && benchmark !== 'burgers' && benchmark !== 'navier-stokes') return {};
  const g = params.nativeGrid ?? params.solveResolution;
  return typeof g === 'number' ? { nativeGrid: g } : {};
}

/** The generator options of a stored generated dataset (its manifest's record), at grid side `side`. */
function recordPlan(g: GeneratorRecord, m: DatasetManifest, side: number): SolvePlan {
  const ov = g.overrides ?? {};
  const kept: Partial<GenerateOptions> = {};
  for (const k of ['frames', 'tIn', 'tOut', 'clamp'] as const) if (ov[k] !== undefined && ov[k] !== null) (kept as Record<string, unknown>)[k] = ov[k];
  return {
    benchmark: g.benchmark as BenchmarkName,
    options: { preset: g.preset, samples: g.params.samples, seed: g.seed, ...kept, resolution: side, ...nativeGridOf(g.benchmark, g.params) },
    // the stored dataset's own pipeline options (split, windows, normalizer), at the new grid
    pipeline: () => ({ ...m.parameters, resolution: m.grid.map(() => side) }),
    who: `${g.benchmark} '${g.preset}', generator seed ${g.seed}`,
  };
}

function specPlan(spec: GenerateSpec, side: number): SolvePlan {
  const at = { ...spec, generateResolution: side, resolution: side };
  let native = {};
  try {
    native = nativeGridOf(spec.benchmark, resolveParams(spec.benchmark, generateOptionsOf(spec)) as unknown as Record<string, unknown>);
  } catch {
    /* the spec's own grid is refused: solved() names why at this grid */
  }
  return {
    benchmark: spec.benchmark,
    options: { ...generateOptionsOf(at), ...native },
    pipeline: (n, gen) => pipelineOptions(at, n, generatedWindow(gen)),
    who: `${spec.benchmark} '${spec.preset}', generator seed ${spec.seed ?? DEFAULT_SEED}`,
  };
}

/**
 * The plan's data solved at `side`, from the workspace's solved sets when kept there; generated
 * (with progress and cancel) and kept otherwise. Refuses a grid the generator cannot make, naming it.
 */
async function solved(plan: SolvePlan, side: number, ctx: GridContext): Promise<PreparedDataset> {
  let params;
  try {
    params = resolveParams(plan.benchmark, plan.options);
  } catch (e) {
    throw new Error(`solved at s = ${side}: the generator cannot make this grid: ${errorMessage(e)}`);
  }
  // what decides the arrays: the generator's resolved parameters and seed, and the pipeline's options
  const pipeline = plan.pipeline(params.samples, { params });
  const key = createHash('sha256').update(JSON.stringify({ v: 1, benchmark: plan.benchmark, params, seed: plan.options.seed ?? DEFAULT_SEED, pipeline })).digest('hex').slice(0, 16);
  const store = DatasetStore.atFolder(join(ctx.workspace, 'datasets', SOLVED_FOLDER));
  const id = `${plan.benchmark}-s${side}-${key}`;
  if (store.has(id)) {
    ctx.onProgress?.(`solved at s = ${side}: kept in the workspace`);
    return store.open(id);
  }
  ctx.onProgress?.(`solving at s = ${side} with the generator`);
  const ds = await generatedData(plan.benchmark, plan.options, plan.pipeline, {
    ...(ctx.signal ? { signal: ctx.signal } : {}),
    onProgress: (m) => ctx.onProgress?.(`solving at s = ${side}: ${m}`),
  });
  ds.manifest.id = id;
  try {
    store.save(ds);
  } catch {
    /* a cache: the evaluation goes on without keeping it */
  }
  return ds;
}

/** The same rows (source samples) as the native grid's split, or an error saying the identities would not match. */
function checkSameSamples(native: TrainData, got: TrainData, split: GridContext['split'], side: number): void {
  const a = (native[split] as { indices?: ArrayLike<number> } | undefined)?.indices;
  const b = (got[split] as { indices?: ArrayLike<number> } | undefined)?.indices;
  if (!a || !b) return;
  if (a.length !== b.length || Array.from(a).some((v, i) => v !== b[i])) {
    throw new Error(`solved at s = ${side}: the '${split}' split holds other samples than the native grid's (${a.length} vs ${b.length} rows): the sample identities would not match`);
  }
}

const rowsOf = (d: TrainData, split: GridContext['split']) => d[split]?.x.shape[0] ?? 0;
const SPLIT_WORD = { train: 'training', val: 'validation', test: 'test' } as const;

/** "solved at s = 57 by the generator (darcy 'tiny', generator seed 0; 24 validation samples, the same sample indices as at s = 29)". */
function solvedOrigin(plan: SolvePlan, d: TrainData, base: TrainData, ctx: GridContext, side: number): string {
  return `solved at s = ${side} by the generator (${plan.who}; ${rowsOf(d, ctx.split)} ${SPLIT_WORD[ctx.split]} samples, the same sample indices as at s = ${gridSide(base.manifest.grid)})`;
}

/** The plan to solve this run's data at `side`, or the reason it cannot. */
function planFor(spec: DataSpec, base: TrainData, side: number): SolvePlan | string {
  if (spec.kind === 'generate') return whyNotSolvedSpec(spec) ?? specPlan(spec, side);
  if (spec.kind === 'dataset') {
    const m = base.manifest as unknown as DatasetManifest;
    const why = whyNotSolvedDataset(m);
    if (why) return why;
    const g = generatorRecord(m)!;
    return recordPlan(g, m, side);
  }
  return whyNotSolvedSpec(spec) ?? 'these data have no generator';
}

/** Resampled from the native grid: a data file prepared again, stored arrays interpolated, a generated set regenerated and interpolated. */
async function resampled(spec: DataSpec, base: TrainData, side: number, ctx: GridContext, why: string | null): Promise<GridData> {
  const grid = base.manifest.grid.map(() => side);
  let data: TrainData;
  let resizedFrom: number[] | undefined;
  if (spec.kind === 'dataset') {
    const at = await preparedAtResolution(base as unknown as PreparedDataset, grid);
    data = at.dataset as unknown as TrainData;
    if (at.how === 'resized stored arrays') resizedFrom = [...base.manifest.grid];
  } else {
    data = await loadTrainData({ ...spec, resolution: side } as DataSpec, { ...(ctx.signal ? { signal: ctx.signal } : {}), workspace: ctx.workspace });
  }
  const how = gridOrigin(data.manifest as unknown as PreparedDataset['manifest'], true, resizedFrom);
  const note = why ? ` — not solved: ${why}` : '';
  return { data, origin: `${how}${note}`, source: 'resampled' };
}

/**
 * The run's data at grid side `side`. `asked`: 'solved' (refused, with the reason, where the
 * generator cannot make it), 'resampled', or undefined: solved where the generator can, resampled
 * otherwise (the provenance then says why).
 */
export async function dataAtGrid(spec: DataSpec, base: TrainData, side: number, asked: TransferSource | undefined, ctx: GridContext): Promise<GridData> {
  if (spec.kind === 'synthetic') {
    const data = await loadTrainData({ ...spec, grid: spec.grid.map(() => side) }, { ...(ctx.signal ? { signal: ctx.signal } : {}) });
    return { data, origin: `synthetic data computed at s = ${side}`, source: 'solved' };
  }
  if (asked === 'resampled') return resampled(spec, base, side, ctx, null);
  const plan = planFor(spec, base, side);
  if (typeof plan === 'string') {
    if (asked === 'solved') throw new Error(`evaluate: source 'solved' at s = ${side} refused: ${plan}`);
    return resampled(spec, base, side, ctx, plan);
  }
  let ds: PreparedDataset;
  try {
    ds = await solved(plan, side, ctx);
  } catch (e) {
    if (asked === 'solved' || ctx.signal?.aborted || !/the generator cannot make this grid/.test(errorMessage(e))) throw e;
    return resampled(spec, base, side, ctx, errorMessage(e));
  }
  const data = ds as unknown as TrainData;
  checkSameSamples(base, data, ctx.split, side);
  return { data, origin: solvedOrigin(plan, data, base, ctx, side), source: 'solved' };
}
