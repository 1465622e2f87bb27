// The Runs view's data: each run's configuration (for the differences) and epoch times, the seed
// groups' statistics (all from the runs cache), and the rows the search and tag filter leave:
// each group (with its runs under it), then ungrouped runs.
import { useMemo } from 'react';
import type { RunSummary } from '../../../../main/api/contract';
import { configDifferences, runTimes, type RunTimingFields } from '../../store/run-metrics';
import { firstError, useEpochSeconds, useRunDetails, useRunGroups } from '../../store/runs-cache';
import { allTags, parseRunQuery, runMatches } from '../../store/run-filter';
import { configKeyApplies } from '../../store/model-kind';
import { datasetLabels, runDataName } from '../../store/dataset-names';
import { useApp } from '../../store/app-store';

export type RunsRow = { kind: 'group'; name: string; members: RunSummary[] } | { kind: 'run'; run: RunSummary; inGroup: boolean };

/** Created to the last status change: queue and pauses included (the status file records no more). */
function wallSeconds(r: RunSummary): number | null {
  if (!r.updatedAt) return null;
  const s = (Date.parse(r.updatedAt) - Date.parse(r.createdAt)) / 1000;
  return Number.isFinite(s) && s >= 0 ? s : null;
}

export function useRunsRows(runs: RunSummary[], query: string, tagFilter: string) {
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

  const diffs = useMemo(() => {
    const withConfig = runs.filter((r) => configs[r.id]);
    const d = configDifferences(withConfig.map((r) => configs[r.id]!), configKeyApplies);
    // Differing data fields (an id is a hash) read as the dataset's name.
    const words = (id: string, entries: [string, string][]) => {
      const rest = entries.filter(([k]) => !/^data(\.|$)/.test(k)).map(([k, v]) => `${k}=${v}`);
      return entries.length > rest.length ? [`data=${runDataName(configs[id]!, labels) ?? '?'}`, ...rest] : rest;
    };
    return Object.fromEntries(withConfig.map((r, i) => [r.id, words(r.id, Object.entries(d[i]!)).join(', ')])) as Record<string, string>;
  }, [runs, configs, labels]);

  // Only runs the search matches (a group shows when any of its runs does).
  const tags = useMemo(() => allTags(runs), [runs]);
  const ordered = useMemo(() => {
    const q = parseRunQuery(query);
    // A stored tag no run has any more (deleted, renamed) filters nothing.
    if (tagFilter && tags.includes(tagFilter)) q.tags.push(tagFilter);
    const shown = runs.filter((r) => runMatches(r, q, diffs[r.id]));
    const out: RunsRow[] = [];
    const seen = new Set<string>();
    for (const r of shown) {
      if (r.group) {
        if (seen.has(r.group)) continue;
        seen.add(r.group);
        out.push({ kind: 'group', name: r.group, members: runs.filter((x) => x.group === r.group) });
        for (const m of shown.filter((x) => x.group === r.group)) out.push({ kind: 'run', run: m, inGroup: true });
      } else out.push({ kind: 'run', run: r, inGroup: false });
    }
    return out;
  }, [runs, query, tagFilter, tags, diffs]);

  const times = (r: RunSummary) => runTimes(r as RunSummary & RunTimingFields, wallSeconds(r), epochTimes[r.id]?.value);
  return { configs, groups, diffs, tags, ordered, times, wall: wallSeconds, loadError: problem ? `Reading run details failed: ${problem}` : null };
}
