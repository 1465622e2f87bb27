// Reproduction presets (main/reproduce) as the API hands them over: the list with sizes and
// estimated times, and a finished reproduction's tables. A table keeps the paper's reported rows
// in their own array, apart from the measured ones; `tableRows` lays them out for display and
// export, measured rows first, each reported row labelled REPORTED_ROW_LABEL. Types, schemas and
// pure functions only: importable from the renderer.
import { z } from 'zod';
import type { TableColumn, TableRow } from './table';

/** The label of every row that holds a published number (never a measured one). */
export const REPORTED_ROW_LABEL = 'reported (paper)';
/** The label of the rows this machine measured. */
export const MEASURED_ROW_LABEL = 'measured (this machine)';

export const ReproduceSize = z.enum(['tiny', 'quick', 'paper']);
export type ReproduceSize = z.infer<typeof ReproduceSize>;

export const ReproducePresetInfo = z.object({
  name: z.string(),
  number: z.number(),
  title: z.string(),
  paper: z.string(),
  benchmark: z.string(),
  arms: z.array(z.string()),
  /** Per size: epochs, seeds, model size, data and the estimated wall time on a 2-core machine. */
  sizes: z.array(z.object({ size: ReproduceSize, estimateSeconds: z.number(), summary: z.string() })),
  figures: z.array(z.string()),
});
export type ReproducePresetInfo = z.infer<typeof ReproducePresetInfo>;

export const ReproduceStartParams = z.object({
  name: z.string().min(1).max(64).regex(/^[a-z0-9-]+$/, 'a preset name such as darcy-ablation'),
  size: ReproduceSize.default('tiny'),
  /** Run a preset and size the workspace already holds a reproduction of again, as a new group ('<name>-<size>-runN'). */
  again: z.boolean().optional(),
  /** Train every run on PyTorch (the 'torch' backend, main/train/torch-run.ts) on this device; default: the engine. */
  backend: z.enum(['torch', 'torch:cpu', 'torch:cuda', 'torch:mps']).optional(),
}).strict();

export interface ReproTable {
  title: string;
  columns: TableColumn[];
  /** Rows measured by this reproduction. */
  measured: TableRow[];
  /** The paper's numbers (main/api/published.ts); empty when the paper reports none. */
  reported: TableRow[];
  /** Metric conventions and sources, printed under the table. */
  notes: string[];
}

export interface ReproduceResult {
  preset: string;
  size: ReproduceSize;
  /** Folder the CSV, LaTeX and figure JSON files were written to. */
  outDir: string;
  files: string[];
  runs: { id: string; arm: string; seed: number; resolution?: number }[];
  tables: ReproTable[];
  /** Figure data (JSON the app plots), by figure kind, and the file it was written to. */
  figures: { kind: string; file: string; data: Record<string, unknown> }[];
  seconds: number;
  /** The how-manieth reproduction of this preset and size (2: its runs are named '<name>-<size>-run2/...'). */
  repeat?: number;
}

/** reproduce.results: the finished reproductions read back from the workspace, and folders that could not be read. */
export const StoredReproductions = z.object({
  results: z.array(z.custom<ReproduceResult>((v) => typeof v === 'object' && v !== null)),
  problems: z.array(z.string()),
});

/** The column that tells measured from reported rows. */
export const SOURCE_COLUMN: TableColumn = { key: 'source', label: 'source' };

/** Display and export order: the measured rows, then the reported ones, every row labelled by its source. */
export function tableRows(t: ReproTable): { columns: TableColumn[]; rows: TableRow[] } {
  return {
    columns: [SOURCE_COLUMN, ...t.columns],
    rows: [...t.measured.map((r) => ({ ...r, source: MEASURED_ROW_LABEL })), ...t.reported.map((r) => ({ ...r, source: REPORTED_ROW_LABEL }))],
  };
}
