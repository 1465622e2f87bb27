// What the Sweeps view, `lino sweep` and the docs show of a sweep: the trial table, per
// configuration the mean ± std over seeds, the best-so-far curve over trials, and parameter
// importance (correlation and random-forest importance, W&B's panel); the tables of it are
// main/api/sweep-tables.ts (one number format with every other export).
import type { SweepAxis, SweepConfig, SweepParams } from './sweep-config';
import type { SweepState } from './sweep-state';
import { encode } from './space';
import { parameterImportance, type ImportanceRow } from './importance';

export interface ConfigSummary {
  config: number;
  params: SweepParams;
  /** Trials with a metric (done or pruned) and their best validation relL2: mean, sample std (0 for one). */
  n: number;
  seeds: number;
  mean: number | null;
  std: number | null;
  /** Trials that ran to the end (not pruned, not failed). */
  complete: number;
}

export interface SweepAnalysis {
  configs: ConfigSummary[];
  /** After each finished trial (in the order they finished in the state): the best metric so far. */
  bestSoFar: { trial: number; runId: string; value: number; best: number }[];
  importance: ImportanceRow[];
  /** Which trials and which epoch the importance compares, in words too (the view shows it). */
  importanceBasis: { epochs: number | null; trials: number; text: string };
  best: ConfigSummary | null;
}

function meanStd(v: number[]): { mean: number | null; std: number | null } {
  if (v.length === 0) return { mean: null, std: null };
  const m = v.reduce((a, b) => a + b, 0) / v.length;
  return { mean: m, std: v.length > 1 ? Math.sqrt(v.reduce((a, b) => a + (b - m) ** 2, 0) / (v.length - 1)) : 0 };
}

/** Whether a correlation means something for the axis: numbers, booleans, or a list of two values. */
const ordered = (a: SweepAxis) => !('values' in a) || a.values.every((v) => typeof v === 'number') || a.values.length <= 2;

type Trial = SweepState['trials'][number];

/**
 * The trials importance compares, all at one budget: a pruned trial's best is from fewer epochs
 * than a finished one's, so mixing them ranks the budget, not the parameters. With no trial pruned,
 * each trial's best over its epochs; otherwise the validation relL2 at the deepest rung every
 * ended trial reached (with mixed epoch counts and no common rung, only the trials that finished).
 */
export function importanceBasis(ended: readonly Trial[]): { rows: { trial: Trial; value: number }[]; basis: SweepAnalysis['importanceBasis'] } {
  const epochsOf = (ts: readonly Trial[]) => (ts.length && ts.every((t) => t.epochs === ts[0]!.epochs) ? ts[0]!.epochs : null);
  const full = (ts: readonly Trial[], why: string) => {
    const e = epochsOf(ts);
    return { rows: ts.map((t) => ({ trial: t, value: t.best! })), basis: { epochs: e, trials: ts.length, text: `over ${ts.length} trial${ts.length === 1 ? '' : 's'} that ran ${e === null ? 'all their' : `their full ${e}`} epochs (best validation relL2)${why}` } };
  };
  if (!ended.some((t) => t.state === 'pruned')) return full(ended, '');
  const at = (t: Trial, epoch: number) => t.rungHistory.find((r) => r.epoch === epoch)?.valRelL2 ?? null;
  const common = [...new Set(ended.flatMap((t) => t.rungHistory.map((r) => r.epoch)))].filter((e) => ended.every((t) => at(t, e) !== null));
  if (common.length === 0) return full(ended.filter((t) => t.state === 'done'), '; pruned trials left out: no rung all reached');
  const rung = Math.max(...common);
  return {
    rows: ended.map((t) => ({ trial: t, value: at(t, rung)! })),
    basis: { epochs: rung, trials: ended.length, text: `over ${ended.length} trials at epoch ${rung}, the deepest rung all of them reached (their validation relL2 there, so pruned and finished trials compare at the same budget)` },
  };
}

export function analyzeSweep(sweep: SweepConfig, state: SweepState): SweepAnalysis {
  const ended = state.trials.filter((t) => (t.state === 'done' || t.state === 'pruned') && t.best !== null);
  const configs = state.configs.map((c) => {
    const ts = state.trials.filter((t) => t.config === c.index);
    const vals = ts.filter((t) => ended.includes(t)).map((t) => t.best!);
    return { config: c.index, params: c.params as SweepParams, n: vals.length, seeds: ts.length, complete: ts.filter((t) => t.state === 'done').length, ...meanStd(vals) };
  });
  let best = Infinity;
  const bestSoFar = ended.map((t, i) => {
    best = Math.min(best, t.best!);
    return { trial: i + 1, runId: t.runId, value: t.best!, best };
  });
  const basis = importanceBasis(ended);
  const importance = parameterImportance(
    sweep.axes.map((a) => a.path),
    sweep.axes.map((a) => basis.rows.map((r) => encode(a, (state.configs[r.trial.config]!.params as SweepParams)[a.path]!))),
    basis.rows.map((r) => r.value),
    sweep.axes.map(ordered),
  );
  const withMean = configs.filter((c) => c.mean !== null && c.complete > 0);
  const bestConfig = withMean.length ? withMean.reduce((a, b) => (b.mean! < a.mean! ? b : a)) : null;
  // a '–' in the forest's column says nothing by itself: name why (too few trials for one tree split)
  const noForest = importance.length > 0 && importance.every((r) => r.importance === null);
  const shownBasis = noForest ? { ...basis.basis, text: `${basis.basis.text}; no random-forest importance: ${basis.rows.length < 4 ? 'it needs at least 4 trials' : `no tree could split ${basis.rows.length} trials (each leaf needs 2)`}, correlation only` } : basis.basis;
  return { configs, bestSoFar, importance, importanceBasis: shownBasis, best: bestConfig };
}
