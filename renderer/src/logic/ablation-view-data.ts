// What the Ablation view computes from the runs, their seed groups (runs.group) and the evaluations
// behind its error grid: the plan and its rows, what is left to launch, the results table and its
// export, the bars' rows, the evaluations to ask for and the error grid's input. Pure, so that a test
// can compute them from a finished ablation's real run folders without a browser
// (test/integration/sweep/ablation-engine.test.ts); the view's components only draw them.
import type { EvaluationResult, Result, RunSummary } from '../../../main/api/contract';
import type { TableColumn, TableRow } from '../../../main/api/table';
import { MEASURED_ROW_LABEL, REPORTED_ROW_LABEL, SOURCE_COLUMN } from '../../../main/api/reproduce';
import { baseSeed, fullConfig, fullGroup, runBaseName, variantConfig, variantGroup, VARIANTS, type VariantKey } from './ablation-plan';
import { aggregateGroup, percentDiff, type paperReference } from './ablation-results';
import type { AblationBarRow } from '../plots/ablation-bars';
import type { AblationFigureInput } from '../plots/ablation-figure';
import { absError } from '../plots/abs-error';
import type { BranchVariant } from '../../../main/api/diagnostics-tables';

export type PaperReference = ReturnType<typeof paperReference>;
type RunGroup = Result<'runs.group'>;

/** Each variant's planned config, seed group and runs (sorted by seed), for a base run and a number of seeds. */
export function ablationPlan(o: { runs: RunSummary[]; base: RunSummary; key: string; config: Record<string, unknown>; seeds: number }) {
  const { runs, base, key, config, seeds } = o;
  const groupSizes = new Map<string, number>();
  for (const r of runs) if (r.group) groupSizes.set(r.group, (groupSizes.get(r.group) ?? 0) + 1);
  const cfg = fullConfig(config, base.group);
  const full = fullGroup({ key, groupSizes, seeds });
  const seedGroup = groupSizes.has(key) ? key : base.group;
  const seed = baseSeed(cfg, seedGroup ? runs.filter((r) => r.group === seedGroup).map((r) => r.seed) : []);
  return VARIANTS.map((v) => {
    const group = v.key === 'full' ? full.group : variantGroup(key, v.key);
    const members = runs.filter((r) => r.group === group).sort((a, b) => (a.seed ?? 0) - (b.seed ?? 0));
    return { variant: v, group, reuse: v.key === 'full' && full.reuse, config: variantConfig(cfg, v, { key, seed, name: runBaseName(base) }), members };
  });
}

export type AblationPlanRow = ReturnType<typeof ablationPlan>[number];

/** The plan's rows with each group's statistics (runs.group where read, else the members' states alone). */
export function ablationRows(plan: AblationPlanRow[], groups: Record<string, RunGroup | undefined>) {
  return plan.map((p) => {
    const g = groups[p.group];
    const agg = aggregateGroup(g && g.group === p.group ? g.runs : p.members.map((m) => ({ id: m.id, seed: m.seed, state: m.state, valRelL2: null, valRelL2Decoded: null })));
    return { ...p, agg };
  });
}

export type AblationRow = ReturnType<typeof ablationRows>[number];

/** The variants Launch starts: applicable, not run yet, and not the base's own seed group. */
export const variantsToLaunch = (plan: AblationPlanRow[] | null): AblationPlanRow[] => (plan ?? []).filter((p) => p.config && p.members.length === 0 && !p.reuse);

/** The Launch button's text. */
export const launchLabel = (toLaunch: number, seeds: number): string => (toLaunch > 0 ? `Launch ${toLaunch} variant${toLaunch > 1 ? 's' : ''} (${toLaunch * seeds} runs)` : 'All variants launched');

/** A variant's first finished seed (the run its error fields come from). */
export const firstDone = (r: { members: RunSummary[] }): RunSummary | null => r.members.find((m) => m.state === 'done') ?? null;

/** The parameter count the engine recorded for a variant's runs (one model, so any member's). */
function recordedParams(members: RunSummary[]): number | null {
  for (const m of members) {
    const p = (m as RunSummary & { params?: number | null }).params;
    if (typeof p === 'number' && Number.isFinite(p)) return p;
  }
  return null;
}

export const ABLATION_COLUMNS: TableColumn[] = [
  { key: 'variant', label: 'Variant' },
  { key: 'off', label: 'Component off' },
  { key: 'seeds', label: 'Seeds done', align: 'r' },
  { key: 'norm', label: 'Best val relL2 (normalized)', align: 'r' },
  { key: 'decoded', label: 'Best val relL2 (decoded)', align: 'r' },
  { key: 'params', label: 'Parameters', align: 'r' },
  { key: 'diff', label: 'vs full (%, normalized relL2)', align: 'r', digits: 3, signed: true },
];

/**
 * The results table: one row per variant (its cells), the paper's rows where it has numbers, and
 * what the LaTeX/CSV export writes (a source column when the paper's rows are there); `bestRow`, the
 * lowest normalized mean, is bold in LaTeX as in the paper.
 */
export function ablationTable(o: { rows: AblationRow[]; seeds: number; paper: PaperReference; params: Partial<Record<VariantKey, number>> | null }) {
  const { rows, seeds, paper, params } = o;
  const reportedRows: TableRow[] = paper ? rows.map((r) => ({ source: REPORTED_ROW_LABEL, variant: r.variant.label, off: r.variant.off, norm: paper.values[r.variant.key] })) : [];
  const fullRow = rows.find((r) => r.variant.key === 'full');
  // The runs' own parameter count when the engine records it (RunSummary.params), else the
  // estimate made with the error-field evaluation.
  const paramsFor = (r: AblationRow) => recordedParams(r.members) ?? params?.[r.variant.key] ?? null;
  const tableRows: TableRow[] = rows.map((r) => ({
    variant: r.variant.label,
    off: r.variant.off,
    seeds: `${r.agg.done}/${r.agg.total || seeds}`,
    norm: r.agg.valRelL2 ? { mean: r.agg.valRelL2.mean, std: r.agg.valRelL2.std } : null,
    decoded: r.agg.valRelL2Decoded ? { mean: r.agg.valRelL2Decoded.mean, std: r.agg.valRelL2Decoded.std } : null,
    params: paramsFor(r),
    diff: r.variant.key === 'full' ? null : percentDiff(r.agg.valRelL2?.mean, fullRow?.agg.valRelL2?.mean),
  }));
  const exportColumns: TableColumn[] = paper ? [SOURCE_COLUMN, ...ABLATION_COLUMNS] : ABLATION_COLUMNS;
  const exportRows: TableRow[] = paper ? [...tableRows.map((r) => ({ ...r, source: MEASURED_ROW_LABEL })), ...reportedRows] : tableRows;
  const bestRow = rows.reduce((best, r, i) => (r.agg.valRelL2 && (best < 0 || r.agg.valRelL2.mean < rows[best]!.agg.valRelL2!.mean) ? i : best), -1);
  return { columns: ABLATION_COLUMNS, tableRows, reportedRows, exportColumns, exportRows, bestRow };
}

/** The bars: each variant with a finished seed, its mean and std, and the paper's value beside it. */
export function ablationBarRows(rows: AblationRow[], paper: PaperReference): AblationBarRow[] {
  return rows.filter((r) => r.agg.valRelL2).map((r) => ({ label: r.variant.label, off: r.variant.off, mean: r.agg.valRelL2!.mean, std: r.agg.valRelL2!.std, reported: paper?.values[r.variant.key] ?? null }));
}

/** A variant's run whose best checkpoint is evaluated (its first finished seed). */
export interface AblationTarget {
  variant: VariantKey;
  runId: string;
  runName: string;
}

/** The model section of a variant's config (for the parameter count). */
export type ModelSection = { width?: number; depth?: number; scattering?: string; components?: string[] };

/** What "Evaluate error fields" asks for: the full model's first finished seed, then each other variant's; null before the full model has one. */
export function evaluationTargets(rows: AblationRow[]): { full: AblationTarget; others: AblationTarget[]; models: Partial<Record<VariantKey, ModelSection>> } | null {
  const target = (r: AblationRow): AblationTarget | null => {
    const run = firstDone(r);
    return run ? { variant: r.variant.key, runId: run.id, runName: run.name } : null;
  };
  const fullRow = rows.find((r) => r.variant.key === 'full');
  const full = fullRow && target(fullRow);
  if (!full) return null;
  const others = rows.filter((r) => r.variant.key !== 'full').map(target).filter((t): t is AblationTarget => t !== null);
  const models = Object.fromEntries(rows.map((r) => [r.variant.key, r.config?.model as ModelSection | undefined]));
  return { full, others, models };
}

type Field = NonNullable<EvaluationResult['resolutions'][number]['fields']>[number];

/** The field a sample's error is drawn from: the first channel, or an autoregressive run's last rollout frame. */
function pickFrame(f: Field): { reference: number[]; prediction: number[] } {
  const last = f.stepRelL2 ? f.reference.length - 1 : 0;
  return { reference: f.reference[last]!, prediction: f.prediction[last]! };
}

const byIndex = (r: EvaluationResult | null, i: number) => r?.resolutions[0]?.fields?.find((f) => f.index === i) ?? null;

/**
 * The error grid's input: the reference row from the full model's evaluation, then per applicable
 * variant |prediction − reference| at the same samples (null where its evaluation has not answered).
 */
export function fieldsFigureInput(o: { rows: AblationRow[]; samples: { index: number; label: string }[]; full: EvaluationResult; resultOf: (variant: VariantKey) => EvaluationResult | null }): AblationFigureInput {
  const { rows, samples, full } = o;
  const reference = samples.map((s) => pickFrame(byIndex(full, s.index)!).reference);
  const figRows = rows.filter((r) => r.config).map((r) => {
    const result = r.variant.key === 'full' ? full : o.resultOf(r.variant.key);
    return {
      label: r.variant.label,
      errors: samples.map((s) => {
        const f = byIndex(result, s.index);
        if (!f) return null;
        const p = pickFrame(f);
        return absError(p.reference, p.prediction);
      }),
    };
  });
  const ar = !!byIndex(full, samples[0]!.index)?.stepRelL2;
  return { grid: full.resolutions[0]!.grid, samples: samples.map((s) => s.label), reference, rows: figRows, referenceTitle: ar ? 'u (last step)' : 'u' };
}

/** The model.estimate call that counts a variant's parameters (null for a model without LiNO's scattering setting). */
export function paramsEstimateParams(m: ModelSection | undefined, shape: { grid: number[]; inChannels: number; outChannels: number }) {
  if (!m || (m.scattering !== 'efficient' && m.scattering !== 'full')) return null;
  const scattering: 'efficient' | 'full' = m.scattering;
  return {
    config: { dims: shape.grid.length as 1 | 2, inChannels: shape.inChannels, outChannels: shape.outChannels, width: m.width ?? 128, depth: m.depth ?? 8, scattering, components: m.components as ('reflection' | 'refraction' | 'scattering')[] },
    grid: shape.grid,
    batch: 1,
  };
}

/** A variant's entry in the branch-spectra comparison: its evaluation (with diagnostics) of its first finished seed; null before it has branch spectra. */
export function branchVariant(label: string, runId: string, result: EvaluationResult | null): BranchVariant | null {
  if (!result?.branchSpectra) return null;
  const m = result.resolutions[0]?.metrics;
  return { variant: label, runId, relL2: m?.relL2 ?? null, relL2Decoded: m?.relL2Decoded ?? null, branches: result.branchSpectra };
}
