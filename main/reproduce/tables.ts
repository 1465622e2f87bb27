// A reproduction's tables: measured rows from its runs, reported rows from main/api/published.ts,
// kept in separate arrays (main/api/reproduce.ts lays them out, measured first, each labelled).
import type { TableColumn, TableRow, Cell } from '../api/table';
import type { ReproTable } from '../api/reproduce';
import { CONVENTION_TEXT, PUBLISHED_SOURCE, publishedRows, type PublishedRow } from '../api/published';
import type { ReproducePreset, PresetSize } from './presets';

/** What one finished run of a preset contributed. */
export interface ArmRun {
  arm: string;
  label: string;
  kind: string;
  seed: number;
  resolution?: number;
  /** The grid the run trained on (a tiny size trains coarser than the paper's title says). */
  grid?: number[];
  runId: string;
  epochs: number;
  bestEpoch: number;
  relL2: number;
  relL2Decoded: number;
  secondsPerEpoch: number;
  estimateBytes: number;
  params: number;
  /** Autoregressive runs, evaluated on the best checkpoint. */
  steps?: { mean: number[]; std: number[] };
  rolloutRelL2?: number;
}

const mean = (v: number[]) => v.reduce((a, b) => a + b, 0) / v.length;
/** One value, or mean ± std (sample std) over seeds. */
function agg(v: number[]): Cell {
  if (v.length === 1) return v[0]!;
  const m = mean(v);
  return { mean: m, std: Math.sqrt(v.reduce((a, b) => a + (b - m) ** 2, 0) / (v.length - 1)) };
}

function columnsFor(p: ReproducePreset): TableColumn[] {
  const c: TableColumn[] = [{ key: 'model', label: 'model' }, { key: 'kind', label: 'kind' }];
  if (p.columns.includes('resolution')) c.push({ key: 'resolution', label: 's', align: 'r' });
  c.push({ key: 'relL2', label: p.columns.includes('rollout') ? 'relL2 normalized (mean over steps)' : 'relL2 normalized', align: 'r', digits: 3 });
  c.push({ key: 'relL2Decoded', label: 'relL2 decoded', align: 'r', digits: 3 });
  if (p.columns.includes('rollout')) {
    c.push({ key: 'rollout', label: 'full rollout relL2 normalized', align: 'r', digits: 3 });
    c.push({ key: 'step1', label: 'step 1 relL2 decoded', align: 'r', digits: 3 }, { key: 'stepLast', label: 'last step relL2 decoded', align: 'r', digits: 3 });
  }
  if (p.columns.includes('seconds')) c.push({ key: 'seconds', label: 's/epoch', align: 'r', digits: 3 });
  if (p.columns.includes('memory')) c.push({ key: 'memory', label: 'step memory est. (MiB)', align: 'r', digits: 3 });
  c.push({ key: 'params', label: 'params', align: 'r' }, { key: 'seeds', label: 'seeds', align: 'r' }, { key: 'epochs', label: 'epochs', align: 'r' }, { key: 'note', label: 'note' });
  return c;
}

function measuredRows(p: ReproducePreset, runs: ArmRun[]): TableRow[] {
  const groups = new Map<string, ArmRun[]>();
  for (const r of runs) {
    const k = `${r.arm}@${r.resolution ?? ''}`;
    groups.set(k, [...(groups.get(k) ?? []), r]);
  }
  return [...groups.values()].map((g) => {
    const f = g[0]!;
    const row: TableRow = {
      model: f.label, kind: f.kind, relL2: agg(g.map((r) => r.relL2)), relL2Decoded: agg(g.map((r) => r.relL2Decoded)),
      params: f.params, seeds: g.length, epochs: f.epochs, note: `best epoch ${g.map((r) => r.bestEpoch).join(', ')}`,
    };
    if (p.columns.includes('resolution')) row.resolution = f.resolution ?? null;
    if (p.columns.includes('seconds')) row.seconds = agg(g.map((r) => r.secondsPerEpoch));
    if (p.columns.includes('memory')) row.memory = f.estimateBytes / 2 ** 20;
    if (p.columns.includes('rollout') && f.steps) {
      row.rollout = agg(g.map((r) => r.rolloutRelL2 ?? Number.NaN));
      row.step1 = agg(g.map((r) => r.steps!.mean[0]!));
      row.stepLast = agg(g.map((r) => r.steps!.mean[r.steps!.mean.length - 1]!));
    }
    return row;
  });
}

function reportedRow(p: ReproducePreset, r: PublishedRow): TableRow {
  const extras = [
    r.secondsPerEpoch !== undefined ? `${r.secondsPerEpoch} s/epoch on one A800` : '',
    r.peakMemoryGiB !== undefined ? `${r.peakMemoryGiB} GB peak GPU memory` : '',
    r.trainHours !== undefined ? `${r.trainHours} h training` : '',
    r.note ?? '',
  ].filter(Boolean);
  const row: TableRow = { model: r.model, kind: r.arm ? (p.arms.find((a) => a.key === r.arm)?.model.kind ?? '') : '', note: [r.convention === 'decoded' ? 'decoded convention (FNO paper)' : 'normalized convention', ...extras].join('; ') };
  // A number sits in the column of its own convention: never compared across conventions.
  row[r.convention === 'decoded' ? 'relL2Decoded' : 'relL2'] = r.relL2;
  if (p.columns.includes('resolution')) row.resolution = r.resolution ?? null;
  if (p.columns.includes('seconds') && r.secondsPerEpoch !== undefined) row.seconds = r.secondsPerEpoch;
  if (p.columns.includes('rollout') && r.rolloutRelL2 !== undefined) row.rollout = r.rolloutRelL2;
  return row;
}

/** The preset's main table: measured rows (grouped over seeds) and the paper's rows. */
export function mainTable(p: ReproducePreset, size: PresetSize, runs: ArmRun[]): ReproTable {
  const published = p.published ? publishedRows(p.published) : [];
  const conventions = [...new Set(published.map((r) => r.convention))];
  return {
    title: `${p.paper}: ${p.title} (${size})`,
    columns: columnsFor(p),
    measured: measuredRows(p, runs),
    reported: published.map((r) => reportedRow(p, r)),
    notes: [
      'measured: best validation relL2 over epochs (normalized fields, the paper\'s convention) and the same epoch on decoded fields',
      ...trainedAtNote(p, size, runs),
      ...conventions.map((c) => `reported ${c}: ${CONVENTION_TEXT[c]}`),
      published.length ? `reported rows: ${PUBLISHED_SOURCE}` : 'the paper reports no numbers for this experiment (qualitative figure only)',
    ],
  };
}

/** Resolution transfer: each arm's lowest-resolution model evaluated at the other resolutions. */
export function transferTable(p: ReproducePreset, size: PresetSize, rows: { label: string; kind: string; trainedAt: number; evaluatedAt: number; relL2: number; relL2Decoded: number; origin?: string }[]): ReproTable {
  return {
    title: `${p.paper}: resolution transfer (${size})`,
    columns: [
      { key: 'model', label: 'model' }, { key: 'kind', label: 'kind' }, { key: 'trainedAt', label: 'trained at s', align: 'r' },
      { key: 'evaluatedAt', label: 'evaluated at s', align: 'r' }, { key: 'relL2', label: 'relL2 normalized', align: 'r', digits: 3 }, { key: 'relL2Decoded', label: 'relL2 decoded', align: 'r', digits: 3 },
      { key: 'origin', label: 'data at that grid' },
    ],
    measured: rows.map(({ label, origin, ...r }) => ({ model: label, ...r, origin: origin ?? '' })),
    reported: [],
    notes: ['inputs at another resolution are normalized with the training statistics; the paper reports no transfer numbers'],
  };
}

/** Where the table has no resolution column, the grid the measured runs trained on (tiny: s = 64, not the title's 256). */
function trainedAtNote(p: ReproducePreset, size: PresetSize, runs: ArmRun[]): string[] {
  if (p.columns.includes('resolution')) return [];
  const grids = [...new Set(runs.flatMap((r) => (r.grid?.length ? [r.grid.every((n) => n === r.grid![0]) ? `s = ${r.grid[0]}` : r.grid.join('×')] : [])))];
  return grids.length ? [`measured rows trained at ${grids.join(', ')} (the ${size} size)`] : [];
}
