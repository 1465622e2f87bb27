// The sweep's records and answers as zod schemas, light (zod only) so the contract and the
// renderer share them: the state (sweeps/<id>/state.json), the analysis and the list's summaries.
import { z } from 'zod';

export const TRIAL_STATES = ['pending', 'running', 'done', 'pruned', 'failed'] as const;
export type TrialState = (typeof TRIAL_STATES)[number];

// state.json is read back from disk (a workspace may come from a cluster or a colleague): every id
// is one folder name and every number finite and in range before anything acts on it.
const RUN_ID = z.string().regex(/^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$/, 'expected a run id: one folder name of letters, digits, . _ - (at most 128)');
const COUNT = z.number().int().min(0);
const SECONDS = z.number().min(0).max(1e9);
/** A relL2 value: finite, at least 0 (z.number() refuses Infinity and NaN). */
const REL_L2 = z.number().min(0);

export const RungRecord = z.object({ epoch: z.number().int().min(1), valRelL2: REL_L2.nullable(), decision: z.enum(['continue', 'prune']) });
export type RungRecord = z.infer<typeof RungRecord>;

export const SweepTrial = z.object({
  runId: RUN_ID,
  /** Index of its configuration in `configs`. */
  config: COUNT,
  seedIndex: COUNT,
  seed: z.number().int(),
  state: z.enum(TRIAL_STATES),
  /** ASHA's rungs for this trial (epochs) and what happened at each one reached. */
  rungs: z.array(z.number().int().min(1)),
  rungHistory: z.array(RungRecord),
  /** Best validation relL2 (normalized) over its epochs, and the epochs trained. */
  best: REL_L2.nullable(),
  epochs: COUNT,
  wallSeconds: SECONDS,
  reason: z.string().optional(),
});
export type SweepTrial = z.infer<typeof SweepTrial>;

export const SWEEP_STATUSES = ['running', 'paused', 'stopped', 'done', 'failed'] as const;

export const SweepState = z.object({
  version: z.literal(1),
  id: z.string(),
  name: z.string(),
  createdAt: z.string(),
  status: z.enum(SWEEP_STATUSES),
  reason: z.string().optional(),
  /** Wall seconds the sweep ran, summed over sessions (the budget's clock). */
  wallSeconds: SECONDS,
  configs: z.array(z.object({ index: COUNT, params: z.record(z.string(), z.unknown()) })),
  trials: z.array(SweepTrial),
}).superRefine((s, ctx) => {
  s.configs.forEach((c, i) => {
    if (c.index !== i) ctx.addIssue({ code: 'custom', path: ['configs', i, 'index'], message: `expected ${i} (configurations are listed in order)` });
  });
  const ids = new Set<string>();
  s.trials.forEach((t, i) => {
    if (t.config >= s.configs.length) ctx.addIssue({ code: 'custom', path: ['trials', i, 'config'], message: `configuration ${t.config} does not exist (the state lists ${s.configs.length})` });
    if (ids.has(t.runId)) ctx.addIssue({ code: 'custom', path: ['trials', i, 'runId'], message: `run '${t.runId}' is already another trial's` });
    ids.add(t.runId);
  });
});
export type SweepState = z.infer<typeof SweepState>;

/** Per configuration: the mean ± std over its seeds of the best validation relL2 (main/sweep/sweep-analysis.ts). */
export const ConfigSummary = z.object({
  config: z.number().int(), params: z.record(z.string(), z.unknown()), n: z.number().int(), seeds: z.number().int(),
  mean: z.number().nullable(), std: z.number().nullable(), complete: z.number().int(),
});
export const ImportanceRow = z.object({ path: z.string(), correlation: z.number().nullable(), importance: z.number().nullable() });
/** The trials importance was computed over: those at one budget (the deepest rung all of them reached, or their full epochs). */
export const ImportanceBasis = z.object({ epochs: z.number().int().nullable(), trials: z.number().int(), text: z.string() });
export const SweepAnalysis = z.object({
  configs: z.array(ConfigSummary),
  importanceBasis: ImportanceBasis,
  bestSoFar: z.array(z.object({ trial: z.number().int(), runId: z.string(), value: z.number(), best: z.number() })),
  importance: z.array(ImportanceRow),
  best: ConfigSummary.nullable(),
});

/** One sweep in the list: where it stands. `active`: this engine runs it now; `paused`: its trials wait. */
export const SweepSummary = z.object({
  id: z.string(), name: z.string(), method: z.string(), status: z.enum(SWEEP_STATUSES), reason: z.string().optional(),
  trials: z.number().int(), ended: z.number().int(),
  /** Trials it will run (a grid: its size times the seeds, within the budget), or null when not known ahead. */
  planned: z.number().int().nullable(),
  /** Trials it may run at most (budget.maxTrials in whole configurations, or the grid's), or null when unbounded. */
  atMost: z.number().int().nullable(), pruned: z.number().int(), failed: z.number().int(),
  best: z.number().nullable(), wallSeconds: z.number(), active: z.boolean(), paused: z.boolean(),
});
export type SweepSummary = z.infer<typeof SweepSummary>;

/** sweeps.get: the sweep as given, its state and its analysis. */
/** `config` is a SweepConfig (main/sweep/sweep-config.ts), checked when the sweep was made. */
export const SweepDetail = z.object({ summary: SweepSummary, config: z.record(z.string(), z.unknown()), state: SweepState, analysis: SweepAnalysis });
export type SweepDetail = z.infer<typeof SweepDetail>;
