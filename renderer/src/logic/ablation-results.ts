// Aggregates an ablation's seed groups into the rows of its results table (Table 3 of the paper):
// per variant the finished seeds' best validation errors as mean ± std, the difference to the full
// model in percent, and the paper's own number where the base's benchmark has one. Pure.
import type { VariantKey } from './ablation-plan';
import { publishedRows } from '../../../main/api/published';

export interface GroupRun {
  id: string;
  seed: number | null;
  state: string;
  valRelL2: number | null;
  valRelL2Decoded: number | null;
}

export interface MeanStd {
  mean: number;
  /** Sample standard deviation (n - 1), as runs.group reports it; 0 for one seed. */
  std: number;
  n: number;
}

/** Mean ± sample std of the finite values; null when there are none. */
export function meanStd(values: (number | null | undefined)[]): MeanStd | null {
  const xs = values.filter((v): v is number => typeof v === 'number' && Number.isFinite(v));
  if (xs.length === 0) return null;
  const mean = xs.reduce((a, b) => a + b, 0) / xs.length;
  const std = xs.length > 1 ? Math.sqrt(xs.reduce((a, b) => a + (b - mean) ** 2, 0) / (xs.length - 1)) : 0;
  return { mean, std, n: xs.length };
}

export interface GroupAggregate {
  total: number;
  done: number;
  /** queued / running / paused / failed / ... counts, for the progress line. */
  states: Record<string, number>;
  valRelL2: MeanStd | null;
  valRelL2Decoded: MeanStd | null;
}

/**
 * The seed a variant's error fields are drawn from: among its finished seeds, the one whose best
 * validation relL2 (normalized) is the group's median (the lower middle one for an even count; ties
 * by seed), so the picture is typical of the group, not of whichever seed was listed first. A group
 * whose finished seeds have no value yet falls back to its first finished seed; null with none.
 */
export function medianSeedRun<R extends { state: string; seed: number | null; bestValRelL2: number | null }>(members: R[]): R | null {
  const done = members.filter((m) => m.state === 'done');
  const scored = done.filter((m) => typeof m.bestValRelL2 === 'number' && Number.isFinite(m.bestValRelL2));
  if (scored.length === 0) return done[0] ?? null;
  scored.sort((a, b) => a.bestValRelL2! - b.bestValRelL2! || (a.seed ?? 0) - (b.seed ?? 0));
  return scored[Math.floor((scored.length - 1) / 2)]!;
}

/** What the error grid's caption says of the seed each row shows. */
export const MEDIAN_SEED_TEXT = "each variant's median seed (the finished seed whose best validation relL2, normalized, is the group's median; the lower middle one for an even count)";

/** Only finished seeds enter the statistics: a running seed's best is not its final one. */
export function aggregateGroup(runs: GroupRun[]): GroupAggregate {
  const done = runs.filter((r) => r.state === 'done');
  const states: Record<string, number> = {};
  for (const r of runs) states[r.state] = (states[r.state] ?? 0) + 1;
  return {
    total: runs.length,
    done: done.length,
    states,
    valRelL2: meanStd(done.map((r) => r.valRelL2)),
    valRelL2Decoded: meanStd(done.map((r) => r.valRelL2Decoded)),
  };
}

/** (value − full) / full in percent; null when either is missing or full is 0. */
export function percentDiff(value: number | null | undefined, full: number | null | undefined): number | null {
  if (value == null || full == null || !Number.isFinite(value) || !Number.isFinite(full) || full === 0) return null;
  return ((value - full) / full) * 100;
}

/** A table cell's "mean ± std"; one seed has no spread, so its value stands alone ("0.7808 (1 seed)", not "± 0.0"). */
export function formatMeanStd(g: MeanStd | null | undefined): string {
  if (!g) return '—';
  return g.n > 1 ? `${g.mean.toPrecision(4)} ± ${g.std.toPrecision(2)}` : `${g.mean.toPrecision(4)} (1 seed)`;
}

export function formatPercent(p: number | null): string {
  if (p == null) return '—';
  const r = Math.abs(p) >= 100 ? p.toFixed(0) : Math.abs(p) >= 10 ? p.toFixed(1) : p.toFixed(2);
  return `${p > 0 ? '+' : ''}${r} %`;
}

/**
 * The paper's ablation (Table 3: Darcy, s = 85, validation relL2 of the efficient-scattering
 * model; main/api/published.ts, from docs/protocol.md). Only Darcy has reported numbers.
 */
export const PAPER_ABLATION: { benchmark: string; setting: string; values: Record<VariantKey, number> }[] = [
  { benchmark: 'darcy', setting: 'Darcy s = 85', values: Object.fromEntries(publishedRows('darcy-ablation').map((r) => [r.arm, r.relL2])) as Record<VariantKey, number> },
];

/** The benchmark a run's data spec names (generated or file data); for a stored dataset, the id's leading benchmark name. */
export function benchmarkOf(config: Record<string, unknown>): string | null {
  const data = (config.data ?? {}) as { kind?: string; benchmark?: string; id?: string };
  if ((data.kind === 'generate' || data.kind === 'file') && data.benchmark) return data.benchmark;
  if (data.kind === 'dataset' && data.id) {
    const m = /^(darcy|burgers|navier-stokes|airfoil)(?![A-Za-z])/.exec(data.id);
    return m ? m[1]! : null;
  }
  return null;
}

export function paperReference(benchmark: string | null): (typeof PAPER_ABLATION)[number] | null {
  return PAPER_ABLATION.find((p) => p.benchmark === benchmark) ?? null;
}

/** Samples to show in the field grid: the full model's best / median / worst, duplicates merged. */
export function gridSamples(picks: { which: string; index: number }[]): { index: number; label: string }[] {
  const out: { index: number; label: string }[] = [];
  for (const p of picks) {
    const seen = out.find((o) => o.index === p.index);
    if (seen) seen.label = `${seen.label.replace(/ \(#\d+\)$/, '')}/${p.which} (#${p.index})`;
    else out.push({ index: p.index, label: `${p.which} (#${p.index})` });
  }
  return out;
}

/**
 * The ablation table's caption: what was run (the base run's name, its data), what the numbers
 * are and over how many seeds, and where the paper's rows come from (not just "Ablation").
 */
export function ablationCaption(o: { runName: string; dataName?: string | null; seeds: number; paperSetting?: string | null }): string {
  const on = o.dataName ? ` on ${o.dataName}` : '';
  const seeds = `${o.seeds} seed${o.seeds === 1 ? '' : 's'}`;
  const paper = o.paperSetting ? `; the reported rows are the paper's Table 3 (${o.paperSetting}, normalized)` : '';
  return `Ablation of ${o.runName}${on}: best validation relL2 (normalized and decoded), mean ± std over ${seeds}${paper}`;
}
