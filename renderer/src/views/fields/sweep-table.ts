// Resolution transfer: which extra grids to evaluate a run at, and the sweep table (one row per
// evaluated grid) the view shows and exports to LaTeX / CSV.
import type { EvaluationResult } from '../../../../main/api/contract';
import type { TableColumn, TableRow } from '../../export/table';

/** Sensible other grids for a training grid of side n: coarser and finer, distinct, 4..4096. */
export function suggestedResolutions(n: number): number[] {
  const out = new Set<number>();
  for (const f of [0.5, 0.75, 1.5, 2]) {
    const m = Math.round(n * f);
    if (m >= 4 && m <= 4096 && m !== n) out.add(m);
  }
  return [...out].sort((a, b) => a - b);
}

/** Grid sides typed as "21, 43 85": whole numbers 2..4096, at most 8 (the engine's limits), or an error naming the bad entry. */
export function parseResolutions(text: string): { ok: true; values: number[] } | { ok: false; error: string } {
  const parts = text.split(/[\s,;]+/).filter(Boolean);
  const values: number[] = [];
  for (const p of parts) {
    const n = Number(p);
    if (!Number.isInteger(n) || n < 2 || n > 4096) return { ok: false, error: `'${p}' is not a grid size (a whole number from 2 to 4096)` };
    if (!values.includes(n)) values.push(n);
  }
  if (values.length > 8) return { ok: false, error: `at most 8 extra resolutions (got ${values.length})` };
  return { ok: true, values };
}

export const SWEEP_COLUMNS: TableColumn[] = [
  { key: 'grid', label: 'Grid' },
  { key: 'role', label: 'Role' },
  { key: 'origin', label: 'How the grid was made' },
  { key: 'relL2', label: 'relL2 (normalized)', align: 'r' },
  { key: 'relL2Decoded', label: 'relL2 (decoded)', align: 'r' },
  { key: 'n', label: 'Samples', align: 'r' },
];

/** One row per evaluated resolution, the training grid first (the engine's order). */
export function sweepRows(result: EvaluationResult): TableRow[] {
  return result.resolutions.map((r, i) => ({
    grid: r.grid.join('×'),
    role: i === 0 ? 'training' : 'transfer',
    // evaluations cached before the engine said how ('—': not recorded)
    origin: r.origin ?? '—',
    relL2: r.metrics.relL2,
    relL2Decoded: r.metrics.relL2Decoded,
    n: r.n,
  }));
}

/** The extra grids asked for: checked and typed, distinct, without the training grid. */
export function extraResolutions(checked: number[], text: string, trainingSide: number | null): number[] | null {
  const p = parseResolutions(text);
  if (!p.ok) return null;
  return [...new Set([...checked, ...p.values])].filter((n) => n !== trainingSide).sort((a, b) => a - b);
}
