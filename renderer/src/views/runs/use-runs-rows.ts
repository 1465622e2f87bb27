// The Runs view's data: each run's configuration (for the differences) and epoch times, the seed
// groups' statistics (all from the runs cache), and the rows the search and tag filter leave:
// each group (with its runs under it), then ungrouped runs.
import { useMemo } from 'react';
import type { RunSummary } from '../../../../main/api/contract';
import { configDifferences, runTimes, type RunTimingFields } from '../../logic/run-metrics';
import { firstError, useEpochSeconds, useRunDetails, useRunGroups } from '../../stores/runs-cache';
import { allTags, bucketRuns, fieldValue, parseRunQuery, runMatches, type GroupBy } from '../../logic/run-filter';
import { flattenConfig } from '../../logic/run-metrics';
import { configKeyApplies } from '../../logic/model-kind';
import { datasetLabels, runDataName } from '../../queries/dataset-names';
import { useApp } from '../../stores/app-store';

export type RunsRow =
  | { kind: 'group'; name: string; members: RunSummary[] }
  /** Runs sharing a value of the chosen grouping (a config field, tag or dataset). */
  | { kind: 'bucket'; name: string; members: RunSummary[] }
  | { kind: 'run'; run: RunSummary; inGroup: boolean };

/** Created to the last status change: queue and pauses included (the status file records no more). */
function wallSeconds(r: RunSummary): number | null {
  if (!r.updatedAt) return null;
  const s = (Date.parse(r.updatedAt) - Date.parse(r.createdAt)) / 1000;
  return Number.isFinite(s) && s >= 0 ? s : null;
}

export function useRunsRows(runs: RunSummary[], query: string, tagFilter: string, groupBy: GroupBy = '') {
  const ids = runs.map((r) => r.id);
  const workspace = useApp((s) => s.workspace);
  const labels = useMemo(() => datasetLabels(workspace), [workspace]);
  const details = useRunDetails(ids);
  const names = [...new Set(runs.map((r) => r.group).filter((g): g is string => !!g))];
  const groupEntries = useRunGroups(names);
  // Epoch durations only where the engine sends no trainSeconds.
  const untimed = useMemo(() => runs.filter((r) => typeof (r as RunSummary & RunTimingFields).trainSeconds !== 'number'), [runs]);
  const epochTimes = useEpochSeconds(untimed);
  const problem = firstError([...ids.map((id) => details[id]), ...names.map((g) => groupEntries[g]), ...untimed.map((r) => epochTimes[r.id])]);

  const configs = useMemo(() => {
    const out: Record<string, Record<string, unknown>> = {};
    for (const id of ids) {
      const c = details[id]?.value?.config;
      if (c) out[id] = c;
    }
    return out;
  }, [details, ids.join(',')]);
  const groups = Object.fromEntries(names.flatMap((g) => (groupEntries[g]?.value ? [[g, groupEntries[g]!.value!]] : [])));

  const flat = useMemo(() => Object.fromEntries(Object.entries(configs).map(([id, c]) => [id, flattenConfig(c)])), [configs]);
  const dataNames = useMemo(() => Object.fromEntries(Object.entries(configs).map(([id, c]) => [id, runDataName(c, labels) ?? ''])), [configs, labels]);
  // Words match the differences across the whole workspace (what sets a run apart from any other)...
  const allDiffs = useMemo(() => differences(runs, configs, labels), [runs, configs, labels]);

  // Only runs the search matches; every panel of the view shows these.
  const tags = useMemo(() => allTags(runs), [runs]);
  const shown = useMemo(() => {
    const q = parseRunQuery(query);
    // A stored tag no run has any more (deleted, renamed) filters nothing.
    if (tagFilter && tags.includes(tagFilter)) q.tags.push(tagFilter);
    return runs.filter((r) => runMatches(r, q, allDiffs[r.id], flat[r.id], dataNames[r.id]));
  }, [runs, query, tagFilter, tags, allDiffs, flat, dataNames]);
  // ...the table's differences are those among the runs shown: a filtered set repeats nothing they share.
  const diffs = useMemo(() => differences(shown, configs, labels), [shown, configs, labels]);
  // Config fields worth grouping by: those that differ between the runs shown (kind-aware, as the differences).
  const groupKeys = useMemo(() => [...new Set(Object.values(diffs).flatMap((d) => d.split(', ').map((e) => e.split('=')[0]!).filter((k) => k && k !== 'data')))].sort(), [diffs]);

  const ordered = useMemo(() => {
    if (groupBy) return bucketed(shown, groupBy, flat, dataNames);
    const out: RunsRow[] = [];
    const seen = new Set<string>();
    for (const r of shown) {
      if (r.group) {
        if (seen.has(r.group)) continue;
        seen.add(r.group);
        const members = shown.filter((x) => x.group === r.group);
        out.push({ kind: 'group', name: r.group, members });
        for (const m of members) out.push({ kind: 'run', run: m, inGroup: true });
      } else out.push({ kind: 'run', run: r, inGroup: false });
    }
    return out;
  }, [shown, flat, dataNames, groupBy]);

  const times = (r: RunSummary) => runTimes(r as RunSummary & RunTimingFields, wallSeconds(r), epochTimes[r.id]?.value);
  return { configs, groups, diffs, tags, groupKeys, shown, ordered, times, wall: wallSeconds, loadError: problem ? `Reading run details failed: ${problem}` : null };
}

/** Per run, the configuration fields that differ among `runs` in words; differing data fields read as the dataset's name (an id is a hash). */
function differences(runs: RunSummary[], configs: Record<string, Record<string, unknown>>, labels: Record<string, string>): Record<string, string> {
  const withConfig = runs.filter((r) => configs[r.id]);
  const d = configDifferences(withConfig.map((r) => configs[r.id]!), configKeyApplies);
  const words = (id: string, entries: [string, string][]) => {
    const rest = entries.filter(([k]) => !/^data(\.|$)/.test(k)).map(([k, v]) => `${k}=${v}`);
    return entries.length > rest.length ? [`data=${runDataName(configs[id]!, labels) ?? '?'}`, ...rest] : rest;
  };
  return Object.fromEntries(withConfig.map((r, i) => [r.id, words(r.id, Object.entries(d[i]!)).join(', ')]));
}

/** Rows under each value of the grouping: a bucket heading, then its runs. */
function bucketed(shown: RunSummary[], groupBy: GroupBy, flat: Record<string, Record<string, string>>, dataNames: Record<string, string>): RunsRow[] {
  const valueOf = (r: RunSummary): string[] => {
    if (groupBy === 'tag') return r.tags ?? [];
    if (groupBy === 'dataset') return dataNames[r.id] ? [dataNames[r.id]!] : [];
    const v = fieldValue(flat[r.id] ?? {}, groupBy.slice('config:'.length));
    return v === undefined ? [] : [v];
  };
  const label = groupBy === 'tag' ? 'tag' : groupBy === 'dataset' ? 'data' : groupBy.slice('config:'.length);
  return bucketRuns(shown, valueOf).flatMap((b) => [
    { kind: 'bucket' as const, name: `${label} = ${b.value}`, members: b.members },
    ...b.members.map((m) => ({ kind: 'run' as const, run: m, inGroup: true })),
  ]);
}
