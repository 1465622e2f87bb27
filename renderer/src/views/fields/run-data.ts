// What data a run was trained on (its config's data spec, from runs.get): which runs can be
// compared sample by sample (the same data), and whether its inputs are mesh coordinates.
import { useMemo } from 'react';
import { useRunDetails } from '../../stores/runs-cache';
import { useApp } from '../../stores/app-store';
import { datasetLabels, runDataName } from '../../queries/dataset-names';

export interface RunData {
  /** Runs with equal keys were trained on the same data (same split, same grid). */
  key: string;
  benchmark: string | undefined;
  /** Readable, for the compare list. */
  label: string;
}

/** The data spec of a run config, as a comparable key, its benchmark and its name (labels: dataset id -> the user's label). */
export function runData(config: Record<string, unknown>, labels: Record<string, string> = {}): RunData {
  const d = (config.data ?? {}) as Record<string, unknown>;
  const keys = Object.keys(d).sort();
  const key = JSON.stringify(keys.map((k) => [k, d[k]]));
  // A stored dataset's id starts with its benchmark (main/data/pipeline.ts: `${benchmark}-${hash}`).
  const benchmark = typeof d.benchmark === 'string' ? d.benchmark : d.kind === 'dataset' && typeof d.id === 'string' ? d.id.split('-')[0] : undefined;
  // The name the other views use (benchmark, grid, samples, split, label), not the dataset's hash id.
  const label = d.kind === 'file' ? `file ${d.path}` : runDataName(config, labels) ?? String(d.kind ?? 'unknown data');
  return { key, benchmark, label };
}

/** Each run's data (its configuration from the runs cache). */
export function useRunData(ids: string[]): Record<string, RunData> {
  const details = useRunDetails(ids);
  const workspace = useApp((s) => s.workspace);
  return useMemo(() => {
    const labels = datasetLabels(workspace);
    const out: Record<string, RunData> = {};
    for (const id of ids) {
      const d = details[id];
      if (d?.value) out[id] = runData(d.value.config, labels);
      // An unreadable config (e.g. a run deleted meanwhile) compares with nothing.
      else if (d?.error) out[id] = { key: `unreadable:${id}`, benchmark: undefined, label: 'unreadable configuration' };
    }
    return out;
  }, [details, ids.join(' '), workspace]);
}
