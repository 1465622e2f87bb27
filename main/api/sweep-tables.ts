// A sweep's three tables (trials, configurations, importance) as columns and rows of ./table.ts,
// built once here for the Sweeps view, its CSV/LaTeX exports, the offline report and `lino sweep`,
// so every one prints with the same number format (never under 3 significant digits, rows that
// differ print differently, signs kept) and names the relL2 convention of its columns.
import type { z } from 'zod';
import type { SweepAnalysis, SweepState } from '../sweep/sweep-types';
import type { Cell, TableColumn, TableRow } from './table';

type State = z.infer<typeof SweepState>;
type Analysis = z.infer<typeof SweepAnalysis>;
export interface SweepTable { columns: TableColumn[]; rows: TableRow[] }
/** The decoded validation relL2 of a trial's run at its best (normalized) epoch, where the caller can read it (the report reads each run). */
export type DecodedAtBest = (runId: string) => number | null;

/** A swept value as a cell: numbers stay numbers (formatted by their column), lists join with "+". */
export const sweptCell = (v: unknown): Cell => (typeof v === 'number' ? v : Array.isArray(v) ? v.join('+') : v == null ? null : String(v));
const axisKey = (path: string) => `p:${path}`;
const axisColumns = (axes: string[]): TableColumn[] => axes.map((p) => ({ key: axisKey(p), label: p }));
const axisCells = (axes: string[], params: Record<string, unknown>) => Object.fromEntries(axes.map((p) => [axisKey(p), sweptCell(params[p])]));

/** One row per trial: status, ASHA rung, epochs, its best validation relL2 (normalized; decoded beside it when given), wall time and parameters. */
export function sweepTrialTable(axes: string[], state: State, decoded?: DecodedAtBest): SweepTable {
  const columns: TableColumn[] = [
    { key: 'trial', label: 'trial', align: 'r' }, { key: 'run', label: 'run' }, { key: 'seed', label: 'seed', align: 'r' }, { key: 'status', label: 'status' }, { key: 'rung', label: 'rung' },
    { key: 'epochs', label: 'epochs', align: 'r' }, { key: 'n', label: 'best val relL2 (normalized)', align: 'r' },
    ...(decoded ? [{ key: 'd', label: 'val relL2 (decoded) at that epoch', align: 'r' as const }] : []),
    { key: 'wall', label: 'wall s', align: 'r', digits: 3 }, ...axisColumns(axes),
  ];
  const rows = state.trials.map((t, i): TableRow => {
    const last = t.rungHistory[t.rungHistory.length - 1];
    return {
      trial: i + 1, run: t.runId, seed: t.seed, status: t.state, rung: last ? `${last.epoch} (${last.decision})` : null, epochs: t.epochs, n: t.best,
      ...(decoded ? { d: decoded(t.runId) } : {}), wall: t.wallSeconds, ...axisCells(axes, state.configs[t.config]?.params ?? {}),
    };
  });
  return { columns, rows };
}

function meanStd(v: number[]): Cell {
  if (v.length === 0) return null;
  const m = v.reduce((s, x) => s + x, 0) / v.length;
  return v.length > 1 ? { mean: m, std: Math.sqrt(v.reduce((s, x) => s + (x - m) ** 2, 0) / (v.length - 1)) } : m;
}

/** Per configuration: parameters, mean ± std over seeds of the best validation relL2 (normalized; decoded beside it when given), and seeds. */
export function sweepConfigTable(axes: string[], state: State, a: Analysis, decoded?: DecodedAtBest): SweepTable {
  const columns: TableColumn[] = [
    { key: 'config', label: 'config', align: 'r' }, ...axisColumns(axes), { key: 'n', label: 'val relL2 (normalized), mean ± std over seeds', align: 'r' },
    ...(decoded ? [{ key: 'd', label: 'val relL2 (decoded), mean ± std over seeds', align: 'r' as const }] : []), { key: 'seeds', label: 'seeds' },
  ];
  const rows = a.configs.map((c): TableRow => {
    const ended = state.trials.filter((t) => t.config === c.config && t.best !== null);
    const d = decoded ? ended.map((t) => decoded(t.runId)).filter((v): v is number => v !== null) : [];
    return {
      config: c.config, ...axisCells(axes, c.params), n: c.mean === null ? null : c.n > 1 ? { mean: c.mean, std: c.std ?? 0 } : c.mean,
      ...(decoded ? { d: meanStd(d) } : {}), seeds: `${c.n} of ${c.seeds}`,
    };
  });
  return { columns, rows };
}

/** Parameter importance (random forest) and the signed correlation with the metric, most important first. */
export function sweepImportanceTable(a: Analysis): SweepTable {
  const columns: TableColumn[] = [
    { key: 'path', label: 'parameter' }, { key: 'importance', label: 'importance (random forest)', align: 'r', digits: 3 },
    { key: 'correlation', label: 'correlation with val relL2 (normalized)', align: 'r', digits: 3, signed: true },
  ];
  const rows = [...a.importance].sort((x, y) => (y.importance ?? -1) - (x.importance ?? -1)).map((r): TableRow => ({ path: r.path, importance: r.importance, correlation: r.correlation }));
  return { columns, rows };
}
