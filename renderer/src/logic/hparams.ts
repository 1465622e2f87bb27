// The Runs view's hyperparameter table and parallel-coordinates plot: each run's configuration
// fields (config.json) next to its best validation error. Pure, so node:test checks it.
import type { RunSummary } from '../../../main/api/contract';
import { kindName } from './model-kind';
import { runDataName } from '../queries/dataset-names';
import type { ParallelAxis, ParallelRow } from '../plots/parallel-coordinates';

export interface HparamField {
  key: string;
  label: string;
  /** Numbers are drawn on their own scale; text fields (model, scattering, components, data) as categories. */
  kind: 'number' | 'text';
  read(config: Record<string, any>, labels: Record<string, string>): number | string | undefined;
}

const num = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) ? v : undefined);
/** The stored kind; configs from before kinds existed are LiNO's. */
const kindOf = (c: Record<string, any>): string => (typeof c.model?.kind === 'string' ? c.model.kind : 'lino');
/** A field only some kinds read: blank for the others (a FNO run's config still carries LiNO's defaults for scattering and components). */
const only = (kind: string, read: (c: Record<string, any>) => number | string | undefined) => (c: Record<string, any>) => (kindOf(c) === kind ? read(c) : undefined);

export const HPARAM_FIELDS: HparamField[] = [
  { key: 'model', label: 'model', kind: 'text', read: (c) => kindName(kindOf(c)) },
  { key: 'width', label: 'width M', kind: 'number', read: (c) => num(c.model?.width) },
  { key: 'depth', label: 'depth L', kind: 'number', read: (c) => num(c.model?.depth) },
  { key: 'scattering', label: 'scattering', kind: 'text', read: only('lino', (c) => (typeof c.model?.scattering === 'string' ? c.model.scattering : undefined)) },
  { key: 'components', label: 'components', kind: 'text', read: only('lino', (c) => (Array.isArray(c.model?.components) ? c.model.components.join('+') : undefined)) },
  { key: 'modes', label: 'modes (FNO)', kind: 'number', read: only('fno', (c) => num(c.model?.modes)) },
  { key: 'basis', label: 'basis p (DeepONet)', kind: 'number', read: only('deeponet', (c) => num(c.model?.basis)) },
  { key: 'lr', label: 'lr', kind: 'number', read: (c) => num(c.optimizer?.lr) },
  { key: 'weightDecay', label: 'weight decay', kind: 'number', read: (c) => num(c.optimizer?.weightDecay) },
  { key: 'batch', label: 'batch', kind: 'number', read: (c) => num(c.batchSize) },
  { key: 'epochs', label: 'epochs', kind: 'number', read: (c) => num(c.epochs) },
  { key: 'seed', label: 'seed', kind: 'number', read: (c) => num(c.seed) },
  { key: 'data', label: 'data', kind: 'text', read: (c, labels) => runDataName(c, labels) },
];

export type HparamRow = Record<string, number | string | null> & { id: string; name: string; best: number | null };

/** One row per run with a stored configuration. */
export function hparamRows(runs: RunSummary[], configs: Record<string, Record<string, unknown>>, labels: Record<string, string> = {}): HparamRow[] {
  return runs.filter((r) => configs[r.id]).map((r) => {
    const row: HparamRow = { id: r.id, name: r.name, best: r.bestValRelL2 };
    for (const f of HPARAM_FIELDS) row[f.key] = f.read(configs[r.id] as Record<string, any>, labels) ?? null;
    return row;
  });
}

export function sortRows(rows: HparamRow[], key: string, dir: 'asc' | 'desc'): HparamRow[] {
  const s = dir === 'asc' ? 1 : -1;
  return [...rows].sort((a, b) => {
    const x = a[key];
    const y = b[key];
    if (x == null || y == null) return x == null ? (y == null ? 0 : 1) : -1; // missing values last either way
    return (typeof x === 'number' && typeof y === 'number' ? x - y : String(x).localeCompare(String(y))) * s;
  });
}

/**
 * The parallel-coordinates figure of the runs that have a best validation error: one axis per
 * field that every such run has (text fields as categories), the error last (and the colour).
 * Null when no run qualifies.
 */
export function parallelHparams(rows: HparamRow[]): { axes: ParallelAxis[]; rows: ParallelRow[] } | null {
  const done = rows.filter((r) => typeof r.best === 'number' && Number.isFinite(r.best));
  if (done.length === 0) return null;
  const axes: ParallelAxis[] = HPARAM_FIELDS.filter((f) => done.every((r) => r[f.key] != null)).map((f) => ({ key: f.key, label: f.label, kind: f.kind }));
  axes.push({ key: 'best', label: 'best val relL2 (normalized)', kind: 'number' });
  return { axes, rows: done };
}
