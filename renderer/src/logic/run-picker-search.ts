// What a run picker offers: with hundreds of runs a flat list is unusable, so pickers
// list the most recent first and narrow to the runs whose name, tags, data, model kind, group or
// state contain every typed word. The selected run stays offered, so the choice never vanishes.
import type { RunSummary, WorkspaceSummary } from '../../../main/api/contract';
import { benchmarkName, benchmarkOfId } from '../../../main/api/dataset-name';

/** The run's data in a few words: its dataset's listed name, else its benchmark. */
export function runDataWords(r: Pick<RunSummary, 'dataId' | 'benchmark'>, ws: WorkspaceSummary | null): string {
  const listed = r.dataId ? ws?.datasets.find((d) => d.id === r.dataId)?.name : undefined;
  if (listed) return listed;
  const bench = r.benchmark ?? (r.dataId ? benchmarkOfId(r.dataId) : null);
  return bench ? benchmarkName(bench) : '';
}

/** Runs in picker order: the most recent first (ISO times sort as text), ties by name. */
export function recentFirst<R extends Pick<RunSummary, 'createdAt' | 'name'>>(runs: R[]): R[] {
  return [...runs].sort((a, b) => (a.createdAt === b.createdAt ? a.name.localeCompare(b.name) : a.createdAt < b.createdAt ? 1 : -1));
}

/** The text a picker searches for a run. */
export function runSearchText(r: RunSummary, dataWords: string): string {
  return [r.name, r.group ?? '', (r.tags ?? []).join(' '), dataWords, r.modelKind ?? 'lino', r.state].join('\n').toLowerCase();
}

/**
 * The runs a picker offers for `query` (every word must match; empty: all), most recent first,
 * with the `selected` run kept in the list even when the words leave it out.
 */
export function pickerRuns(runs: RunSummary[], query: string, dataWordsOf: (r: RunSummary) => string, selected: string | null = null): RunSummary[] {
  const words = query.toLowerCase().split(/\s+/).filter(Boolean);
  const hit = (r: RunSummary) => {
    const text = runSearchText(r, dataWordsOf(r));
    return words.every((w) => text.includes(w));
  };
  return recentFirst(runs.filter((r) => r.id === selected || hit(r)));
}

/** One option's text: name, kind and data, state and progress ("darcy-a — lino · Darcy · s = 29 — done (10/10 epochs)"). */
export function runOptionText(r: RunSummary, dataWords: string): string {
  const what = [r.modelKind ?? 'lino', dataWords].filter(Boolean).join(' · ');
  return `${r.name} — ${what} — ${r.state} (${r.epochsDone}/${r.epochs ?? '?'} epochs)`;
}
