// What the views read about runs beyond the run list (zustand): a run's stored configuration
// (runs.get), a seed group's statistics (runs.group), a run's epoch durations (runs.metrics) and
// its checkpoints (runs.checkpoints),
// each fetched once and shared by every view that shows it. An entry is stamped with what the run
// list said when it was read (a run's state; a group's members' state and epoch count; a run's
// epoch count): run events refresh that list (training store), so a run that starts, ends or
// finishes an epoch reads its entries again. Until the new answer comes the old one stays shown.
import { useEffect } from 'react';
import { create } from 'zustand';
import type { Result, RunSummary } from '../../../main/api/contract';
import { errorText } from '../api/error-text';
import { requireApi, useApp } from './app-store';
import { useTraining } from './training-store';

export type RunDetail = Result<'runs.get'>;
export type RunGroup = Result<'runs.group'>;

export interface CacheEntry<T> {
  /** What the run list said when this was asked for; a different stamp asks again. */
  stamp: string;
  value?: T;
  error?: string;
}

type Kind = 'details' | 'groups' | 'epochSeconds' | 'checkpoints';
export type RunCheckpoint = Result<'runs.checkpoints'>[number];

interface RunsCacheState {
  details: Record<string, CacheEntry<RunDetail>>;
  groups: Record<string, CacheEntry<RunGroup>>;
  /** Per run, its epochs' durations in seconds (for runs whose summary has no train time). */
  epochSeconds: Record<string, CacheEntry<number[]>>;
  /** Per run, its checkpoints (best, last), read again after each epoch. */
  checkpoints: Record<string, CacheEntry<RunCheckpoint[]>>;
}

export const useRunsCache = create<RunsCacheState>(() => ({ details: {}, groups: {}, epochSeconds: {}, checkpoints: {} }));

const asked = new Map<string, string>();

/** Reads `key` unless an answer (or a request) for this stamp is there already; a failed read is tried again. */
function ensure<T>(kind: Kind, key: string, stamp: string, read: () => Promise<T>): void {
  const id = `${kind}\n${key}`;
  const have = useRunsCache.getState()[kind][key] as CacheEntry<T> | undefined;
  if (asked.get(id) === stamp || (have && have.stamp === stamp && !have.error && !asked.has(id))) return;
  asked.set(id, stamp);
  const put = (patch: Partial<CacheEntry<T>>) => {
    // A newer stamp asked meanwhile: this answer is stale.
    if (asked.get(id) !== stamp) return;
    asked.delete(id);
    useRunsCache.setState((s) => ({ [kind]: { ...s[kind], [key]: { ...s[kind][key], ...patch, stamp } } }) as Partial<RunsCacheState>);
  };
  read().then(
    (value) => put({ value, error: undefined }),
    (e) => put({ error: errorText(e) }),
  );
}

const api = requireApi;

// A run's config changes when it first starts (the runner records the data's real shape then).
const detailStamp = (runs: RunSummary[], id: string) => {
  const r = runs.find((x) => x.id === id);
  return r ? `${r.state}:${r.epochsDone > 0}` : 'unlisted';
};
const groupStamp = (runs: RunSummary[], group: string) =>
  runs.filter((r) => r.group === group).map((r) => `${r.id}:${r.state}:${r.epochsDone}`).join(',');

/** runs.get for each id, read again when the run's state changes or its first epoch ends. */
export function useRunDetails(ids: string[]): Record<string, CacheEntry<RunDetail>> {
  const connected = useApp((s) => !!s.api);
  const stamps = useTraining((s) => ids.map((id) => detailStamp(s.runs, id)).join('|'));
  const key = ids.join('|');
  useEffect(() => {
    if (!connected) return;
    const runs = useTraining.getState().runs;
    for (const id of ids) ensure('details', id, detailStamp(runs, id), () => api().call('runs.get', { id }));
  }, [connected, key, stamps]);
  return useRunsCache((s) => s.details);
}

/** runs.get for one run (null: none chosen). */
export function useRunDetail(id: string | null): CacheEntry<RunDetail> | null {
  const all = useRunDetails(id ? [id] : []);
  return id ? (all[id] ?? null) : null;
}

/** runs.group for each group name, read again when a member's state or epoch count changes. */
export function useRunGroups(names: string[]): Record<string, CacheEntry<RunGroup>> {
  const connected = useApp((s) => !!s.api);
  const stamps = useTraining((s) => names.map((g) => groupStamp(s.runs, g)).join('|'));
  const key = names.join('|');
  useEffect(() => {
    if (!connected) return;
    const runs = useTraining.getState().runs;
    for (const g of names) ensure('groups', g, groupStamp(runs, g), () => api().call('runs.group', { group: g }));
  }, [connected, key, stamps]);
  return useRunsCache((s) => s.groups);
}

/** Each listed run's epoch durations (runs.metrics, epoch records), read again after each epoch. */
export function useEpochSeconds(runs: RunSummary[]): Record<string, CacheEntry<number[]>> {
  const connected = useApp((s) => !!s.api);
  const key = runs.map((r) => `${r.id}:${r.epochsDone}`).join(',');
  useEffect(() => {
    if (!connected) return;
    for (const r of runs) {
      ensure('epochSeconds', r.id, String(r.epochsDone), async () => {
        const m = await api().call('runs.metrics', { id: r.id, type: 'epoch' });
        return m.records.flatMap((x) => (x.type === 'epoch' ? [x.epochSeconds] : []));
      });
    }
  }, [connected, key]);
  return useRunsCache((s) => s.epochSeconds);
}

/** A run's checkpoints (runs.checkpoints), read again when its epoch count changes. */
export function useRunCheckpoints(run: RunSummary): CacheEntry<RunCheckpoint[]> | null {
  const connected = useApp((s) => !!s.api);
  useEffect(() => {
    if (connected) ensure('checkpoints', run.id, String(run.epochsDone), () => api().call('runs.checkpoints', { id: run.id }));
  }, [connected, run.id, run.epochsDone]);
  return useRunsCache((s) => s.checkpoints[run.id] ?? null);
}

/** The first error among entries (for one line under a table), else null. */
export function firstError(entries: (CacheEntry<unknown> | undefined)[]): string | null {
  return entries.find((e) => e?.error)?.error ?? null;
}
