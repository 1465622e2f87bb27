// A dataset's name as people read it: benchmark, resolution, samples and split, and the user's own
// label, never the content hash (the id, shown only in details). Shared by the host's workspace
// summary and the renderer (runs name their data from config.json's resolvedData).

export interface DatasetNameParts {
  id: string;
  benchmark?: string | null;
  grid?: number[] | null;
  counts?: { train: number; val: number; test: number } | null;
  /** Distinct samples (the manifest's sourceSamples) when fewer than the splits' sum: splits share them (a Playground sample is its train and its val split). */
  samples?: number | null;
  label?: string | null;
}

/** "1 sample", "2 samples": a count with its noun, singular for one. */
export function plural(n: number, noun: string): string {
  return `${n} ${noun}${n === 1 ? '' : 's'}`;
}

const BENCHMARK_NAMES: Record<string, string> = { darcy: 'Darcy', burgers: 'Burgers', 'navier-stokes': 'Navier–Stokes', airfoil: 'Airfoil', custom: 'Custom', synthetic: 'Synthetic' };

/** 'darcy-beababc8a08c' -> 'darcy' (dataset ids are '<benchmark>-<hash>'). */
export function benchmarkOfId(id: string): string | null {
  const m = /^(darcy|burgers|navier-stokes|airfoil|custom|synthetic)(?=-)/.exec(id);
  return m ? m[1]! : null;
}

export function benchmarkName(b: string): string {
  return BENCHMARK_NAMES[b] ?? b;
}

/** "Darcy · s = 29 · 10 samples (8/2/0)", with the label first when there is one ("coarse set — Darcy · …"). */
export function datasetDisplayName(d: DatasetNameParts): string {
  const bench = d.benchmark ?? benchmarkOfId(d.id);
  const parts: string[] = [bench ? benchmarkName(bench) : d.id];
  const g = d.grid ?? [];
  if (g.length > 0) parts.push(g.every((n) => n === g[0]) ? `s = ${g[0]}${g.length > 1 ? ` (${g.length}D)` : ''}` : g.join('×'));
  if (d.counts) {
    const { train, val, test } = d.counts;
    const sum = train + val + test;
    const n = d.samples != null && d.samples < sum ? d.samples : sum;
    parts.push(`${plural(n, 'sample')} (${train}/${val}/${test}${n < sum ? ', shared by the splits' : ''})`);
  }
  const base = parts.join(' · ');
  const label = d.label?.trim();
  return label ? `${label} — ${base}` : base;
}

/**
 * The target variable as the published files (and so the Datasets view's channels) name it; the
 * same names as main/data/pipeline.ts DEFAULT_VARIABLES (a unit test keeps them equal).
 */
export const TARGET_NAMES: Record<string, string> = { burgers: 'u', darcy: 'sol', 'navier-stokes': 'u', airfoil: 'mach' };

/**
 * The target as figures label it (colour bars): the file's variable name, except that the
 * Navier–Stokes files call the vorticity 'u' and its symbol is w.
 */
export const TARGET_SYMBOLS: Record<string, string> = { ...TARGET_NAMES, 'navier-stokes': 'w' };
