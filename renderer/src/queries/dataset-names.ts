// Datasets by the names people read (main/api/dataset-name.ts): a run's data named from the
// dataset it resolved to (config.json's resolvedData) with the user's label from the workspace,
// and the label set from the Datasets view.
import { TARGET_SYMBOLS, benchmarkName, benchmarkOfId, datasetDisplayName } from '../../../main/api/dataset-name';
import type { WorkspaceSummary } from '../../../main/api/contract';
import { useApp } from '../stores/app-store';

type Obj = Record<string, unknown>;
const obj = (v: unknown): Obj | null => (v && typeof v === 'object' && !Array.isArray(v) ? (v as Obj) : null);

/** Dataset id -> label, from the workspace summary. */
export function datasetLabels(ws: WorkspaceSummary | null): Record<string, string> {
  return Object.fromEntries((ws?.datasets ?? []).flatMap((d) => (d.label ? [[d.id, d.label]] : [])));
}

/** A run's data in words: the resolved dataset once it has trained, else its data spec. */
export function runDataName(config: Obj, labels: Record<string, string> = {}): string | undefined {
  const r = obj(config.resolvedData);
  const d = obj(config.data);
  const id = typeof r?.id === 'string' ? r.id : d?.kind === 'dataset' && typeof d.id === 'string' ? d.id : null;
  const benchmark = typeof d?.benchmark === 'string' ? d.benchmark : null;
  if (r && id) {
    const counts = obj(r.counts);
    const grid = Array.isArray(r.grid) ? (r.grid as number[]) : null;
    return datasetDisplayName({ id, benchmark, grid, counts: counts ? (counts as { train: number; val: number; test: number }) : null, label: labels[id] ?? null });
  }
  if (!d) return undefined;
  if (d.kind === 'dataset' && id) return datasetDisplayName({ id, label: labels[id] ?? null });
  if (d.kind === 'generate') return `${benchmarkName(String(d.benchmark))} · ${String(d.preset ?? 'quick')} preset${typeof d.resolution === 'number' ? ` · s = ${d.resolution}` : ''}`;
  if (d.kind === 'file') return `${benchmarkName(String(d.benchmark))} file`;
  return String(d.kind);
}

/** A workspace dataset's name by its id (a generation job's result): its listed name, else the benchmark read from the id; never the hash. */
export function datasetNameById(ws: WorkspaceSummary | null, id: string): string {
  return ws?.datasets.find((d) => d.id === id)?.name ?? datasetDisplayName({ id });
}

/** Sets a dataset's label ('' clears it); the workspace's names follow. */
export async function setDatasetLabel(id: string, label: string): Promise<void> {
  const api = useApp.getState().api;
  if (!api) throw new Error('not connected to the workbench');
  useApp.setState({ workspace: await api.call('datasets.label', { id, label }) });
}

/** A run's target as its figures' colour bars label it: its channel's name ('sol' for Darcy), w for the Navier–Stokes vorticity. */
export function runTargetSymbol(config: Obj | undefined): string {
  const d = obj(config?.data);
  if (typeof d?.target === 'string') return d.target;
  const r = obj(config?.resolvedData);
  const id = typeof r?.id === 'string' ? r.id : typeof d?.id === 'string' ? d.id : '';
  const bench = typeof d?.benchmark === 'string' ? d.benchmark : benchmarkOfId(id);
  return (bench && TARGET_SYMBOLS[bench]) || 'u';
}

/** The caveat of a dataset's references for the |error| maps' captions (main/api/reference-note.ts), or null. */
export const useReferenceNote = (dataId: string | null | undefined): string | null =>
  useApp((s) => (dataId ? s.workspace?.datasets.find((d) => d.id === dataId)?.referenceNote ?? null : null));
