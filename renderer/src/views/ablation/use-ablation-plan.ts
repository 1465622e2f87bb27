// The Ablation view's data: the base run's configuration (runs cache), each variant's planned
// config, seed group and runs, and its group statistics (runs cache, read again as members train).
import { useMemo } from 'react';
import { useTraining } from '../../stores/training-store';
import { firstError, useRunDetail, useRunGroups } from '../../stores/runs-cache';
import { ablationKey, runBaseName } from '../../logic/ablation-plan';
import { benchmarkOf, paperReference } from '../../logic/ablation-results';
import { ablationPlan, ablationRows } from '../../logic/ablation-view-data';
import { useApp } from '../../stores/app-store';
import { datasetLabels, runDataName } from '../../queries/dataset-names';

export function useAblationPlan(seeds: number, seedsValid: boolean) {
  const runs = useTraining((s) => s.runs);
  const baseId = useTraining((s) => s.selectedRun);
  const base = runs.find((r) => r.id === baseId) ?? null;
  const detail = useRunDetail(baseId);
  const config = detail?.value?.config ?? null;
  const configError = detail?.error ? `Reading the run's configuration failed: ${detail.error}` : null;
  const key = base ? ablationKey(base) : null;

  const plan = useMemo(() => (base && key && config && seedsValid ? ablationPlan({ runs, base, key, config, seeds }) : null), [base, key, config, seeds, seedsValid, runs]);
  const paper = paperReference(config ? benchmarkOf(config) : null);
  // Names people read, for headings and the table caption (never the run id).
  const workspace = useApp((s) => s.workspace);
  const runName = base ? runBaseName(base) : null;
  const dataName = useMemo(() => (config ? (runDataName(config, datasetLabels(workspace)) ?? null) : null), [config, workspace]);

  // Group statistics (runs.group) of the variants that have runs.
  const names = (plan ?? []).filter((p) => p.members.length > 0).map((p) => p.group);
  const groups = useRunGroups(names);
  const groupError = firstError(names.map((g) => groups[g]));
  const rows = useMemo(() => ablationRows(plan ?? [], Object.fromEntries(Object.entries(groups).map(([g, e]) => [g, e.value]))), [plan, groups]);
  return { runs, base, key, runName, dataName, plan, rows, paper, configError, groupError: groupError ? `Reading the seed groups failed: ${groupError}` : null };
}

export type { AblationRow } from '../../logic/ablation-view-data';
