// What a benchmark generation will use, shown before it starts. Pure.
import type { DataSpec } from '../../../main/api/contract';

const isPow2 = (n: number) => n >= 2 && (n & (n - 1)) === 0;

/**
 * The preset's parameters with a typed resolution applied as the generator applies it (the
 * engine's rule in main/data/generate/presets.ts `resolveParams`, mirrored because the renderer
 * imports only main/api; a unit test keeps both equal): Darcy solves on the stored grid unless the
 * paper preset strides its 421 grid, Burgers and Navier–Stokes solve on at least the stored grid.
 * A resolution the generator would refuse changes nothing (the field shows why).
 */
export function withResolution(params: Record<string, unknown>, preset: string, r: number): Record<string, unknown> {
  const p = { ...params };
  const solve = typeof p.solveResolution === 'number' ? p.solveResolution : r;
  switch (p.benchmark) {
    case 'darcy':
      if (!Number.isInteger(r) || r < 8 || r > 421) return params;
      p.resolution = r;
      if (!(preset === 'paper' && (solve - 1) % (r - 1) === 0)) p.solveResolution = r;
      return p;
    case 'burgers':
      if (!isPow2(r) || r < 16 || r > 65536) return params;
      p.resolution = r;
      if (r > solve) { p.solveResolution = r; p.modes = r / 2; }
      return p;
    case 'navier-stokes':
      if (!isPow2(r) || r < 8 || r > 1024) return params;
      p.resolution = r;
      if (preset !== 'paper' || r > solve) p.solveResolution = r;
      return p;
    default:
      return params;
  }
}

/**
 * The parameters a generation will use, as [name, value, preset value when overridden]: the
 * preset's, with the Samples, Seed and Resolution fields applied when they hold a valid number
 * (blank: the preset's own), so the list shows what the generator will really use.
 */
export function effectiveParams(params: Record<string, unknown>, typed: { samples: string; seed: string; resolution?: string }, preset = ''): [string, string, string | undefined][] {
  const override: Record<string, unknown> = {};
  for (const k of ['samples', 'seed'] as const) {
    const t = typed[k].trim();
    const n = Number(t);
    if (t !== '' && Number.isInteger(n) && n >= (k === 'samples' ? 2 : 0)) override[k] = n;
  }
  const r = (typed.resolution ?? '').trim();
  if (r !== '' && Number.isInteger(Number(r))) {
    const resized = withResolution(params, preset, Number(r));
    for (const k of ['resolution', 'solveResolution', 'modes']) if (resized[k] !== params[k]) override[k] = resized[k];
  }
  const out: [string, string, string | undefined][] = [];
  for (const [k, v] of Object.entries(params)) {
    if (k === 'benchmark') continue;
    if (k in override && override[k] !== v) out.push([k, String(override[k]), String(v)]);
    else out.push([k, String(v), undefined]);
  }
  return out;
}

export interface GenerateTyped {
  samples: string;
  seed: string;
  resolution: string;
  train: string;
  val: string;
  test: string;
  /** The split's shuffle seed (blank: 42, the release's). */
  splitSeed?: string;
}

/**
 * The engine's default test count (main/data/stages/split.ts `defaultTestCount`, mirrored here
 * because the renderer imports only main/api; a unit test keeps both equal): 10 %, at least one
 * from 3 samples up, within what the train and validation counts asked leave.
 */
export function defaultTestCount(n: number, asked: { train?: number; val?: number } = {}): number {
  const share = n >= 3 ? Math.max(1, Math.round(n * 0.1)) : 0;
  return Math.max(0, Math.min(share, n - (asked.train ?? 1) - (asked.val ?? 1)));
}

export interface GenerateCheck {
  /** Per field, why its value cannot be used (shown as it is typed). */
  problems: Partial<Record<keyof GenerateTyped, string>>;
  /** What can be generated but deserves a second look (too small to split, large on disk). */
  warnings: string[];
  /** The numbers to send (blank fields: the preset's own). */
  values: Partial<Record<keyof GenerateTyped, number>>;
}

const MIN: Record<keyof GenerateTyped, number> = { samples: 2, seed: 0, resolution: 8, train: 1, val: 0, test: 0, splitSeed: 0 };
const MAX: Record<keyof GenerateTyped, number> = { samples: 1_000_000, seed: 2 ** 31 - 1, resolution: 65536, train: 1_000_000, val: 1_000_000, test: 1_000_000, splitSeed: 2 ** 31 - 1 };
const LABEL: Record<keyof GenerateTyped, string> = { samples: 'Samples', seed: 'Seed', resolution: 'Resolution', train: 'Train', val: 'Validation', test: 'Test', splitSeed: 'Split seed' };
const LARGE_BYTES = 1024 ** 3;

/** Bytes on disk, roughly: raw and prepared float32 input and target per grid point (and frame). */
export function diskEstimate(benchmark: string, samples: number, resolution: number, frames = 20): number {
  const points = benchmark === 'burgers' ? resolution : resolution * resolution;
  const perSample = benchmark === 'navier-stokes' ? points * frames : points * 2;
  return samples * perSample * 4 * 2;
}

const human = (b: number) => (b >= 1024 ** 3 ? `${(b / 1024 ** 3).toFixed(1)} GiB` : `${Math.max(1, Math.round(b / 1024 ** 2))} MiB`);

/**
 * The generate form's fields checked as they are typed: whole numbers in range, a split that fits
 * the samples; warnings for a split too small to train and validate on and a disk estimate above 1 GiB.
 */
export function checkGenerate(benchmark: string, typed: GenerateTyped, preset: { samples?: number; resolution?: number }): GenerateCheck {
  const problems: GenerateCheck['problems'] = {};
  const values: GenerateCheck['values'] = {};
  for (const k of Object.keys(MIN) as (keyof GenerateTyped)[]) {
    const t = (typed[k] ?? '').trim();
    if (t === '') continue;
    const n = Number(t);
    if (!Number.isInteger(n) || n < MIN[k] || n > MAX[k]) problems[k] = `${LABEL[k]} must be a whole number from ${MIN[k]} to ${MAX[k]}${k === 'samples' || k === 'resolution' ? ' (blank: the preset\'s)' : ''}`;
    else values[k] = n;
  }
  const warnings: string[] = [];
  const n = values.samples ?? preset.samples;
  const asked = (values.train ?? 0) + (values.val ?? 0) + (values.test ?? 0);
  if (n !== undefined && asked > n && !problems.train) problems.train = `Train + validation + test (${asked}) must be at most the ${n} samples`;
  if (n !== undefined && !problems.samples) {
    // blank Test: the engine's default (10 %), so the estimate below matches what will be made
    const test = values.test ?? defaultTestCount(n, { ...(values.train !== undefined ? { train: values.train } : {}), ...(values.val !== undefined ? { val: values.val } : {}) });
    const val = values.val ?? (values.train !== undefined ? n - values.train - test : n - Math.max(1, Math.floor((n - test) * 0.8)) - test);
    const train = values.train ?? n - test - Math.max(0, val);
    // a large set split with a tiny train or validation part is not "too few samples": say which part is small
    if (n < 10) warnings.push(`${n} samples is too few to split well (about ${Math.max(0, train)} to train on, ${Math.max(0, val)} to validate on): the validation error will say little`);
    else if (train < 4) warnings.push(`Only ${Math.max(0, train)} of the ${n} samples to train on: the model will learn little`);
    else if (val < 2) warnings.push(`Only ${Math.max(0, val)} of the ${n} samples to validate on: the validation error will say little`);
    if (test === 0) warnings.push('No test split: the final evaluation and the Runs table\'s Test relL2 need one (set Test above 0)');
  }
  const res = values.resolution ?? preset.resolution;
  if (n !== undefined && res !== undefined) {
    const bytes = diskEstimate(benchmark, n, res);
    if (bytes > LARGE_BYTES) warnings.push(`About ${human(bytes)} on disk for ${n} samples at ${res} points per axis`);
  }
  return { problems, warnings, values };
}

/**
 * The Training view's data choice as a run's data spec ('dataset:<id>' or 'generate:<benchmark>:<preset>');
 * `samples`: the generator preset's sample count, so a generated set gets its test split (10 %)
 * from 10 samples up.
 */
export function dataSpecFor(source: string, samples?: number): DataSpec {
  if (source.startsWith('dataset:')) return { kind: 'dataset', id: source.slice('dataset:'.length) };
  const [, benchmark, preset] = source.split(':');
  // a tiny preset (6 samples) keeps its two validation samples: with one, best, median and worst are the same sample
  const test = samples !== undefined && samples >= 10 ? defaultTestCount(samples) : 0;
  return { kind: 'generate', benchmark: benchmark as 'darcy', preset: preset as 'tiny' | 'quick', ...(test > 0 ? { test } : {}) } as DataSpec;
}

/**
 * The Samples field's value when the generate form shows benchmark:preset `key`: the preset's
 * sample count when the field was last filled for another one (or never), else null (keep what
 * is there: typed values survive a view switch and a reload).
 */
export function presetSamplesOnChange(filledFor: string, key: string, presetSamples: unknown): string | null {
  if (filledFor === key || typeof presetSamples !== 'number') return null;
  return String(presetSamples);
}
