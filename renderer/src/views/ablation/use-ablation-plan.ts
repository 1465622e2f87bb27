// The Ablation view's data: the base run's configuration (runs cache), each variant's planned
// config, seed group and runs, and its group statistics (runs cache, read again as members train).
import { useMemo } from 'react';
import type { RunSummary } from '../../../../main/api/contract';
import { useTraining } from '../../stores/training-store';
import { firstError, useRunDetail, useRunGroups } from '../../stores/runs-cache';
import { ablationKey, baseSeed, runBaseName, fullConfig, fullGroup, variantConfig, variantGroup, VARIANTS } from '../../logic/ablation-plan';
import { aggregateGroup, benchmarkOf, medianSeedRun, paperReference } from '../../logic/ablation-results';
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

  const groupSizes = useMemo(() => {
    const m = new Map<string, number>();
    for (const r of runs) if (r.group) m.set(r.group, (m.get(r.group) ?? 0) + 1);
    return m;
  }, [runs]);

  const plan = useMemo(() => {
    if (!base || !key || !config || !seedsValid) return null;
    const cfg = fullConfig(config, base.group);
    const full = fullGroup({ key, groupSizes, seeds });
    const seedGroup = groupSizes.has(key) ? key : base.group;
    const seed = baseSeed(cfg, seedGroup ? runs.filter((r) => r.group === seedGroup).map((r) => r.seed) : []);
    return VARIANTS.map((v) => {
      const group = v.key === 'full' ? full.group : variantGroup(key, v.key);
      const members = runs.filter((r) => r.group === group).sort((a, b) => (a.seed ?? 0) - (b.seed ?? 0));
      return { variant: v, group, reuse: v.key === 'full' && full.reuse, config: variantConfig(cfg, v, { key, seed, name: runBaseName(base) }), members };
    });
  }, [base, key, config, groupSizes, seeds, seedsValid, runs]);
  const paper = paperReference(config ? benchmarkOf(config) : null);
  // Names people read, for headings and the table caption (never the run id).
  const workspace = useApp((s) => s.workspace);
  const runName = base ? runBaseName(base) : null;
  const dataName = useMemo(() => (config ? (runDataName(config, datasetLabels(workspace)) ?? null) : null), [config, workspace]);

  // Group statistics (runs.group) of the variants that have runs.
  const names = (plan ?? []).filter((p) => p.members.length > 0).map((p) => p.group);
  const groups = useRunGroups(names);
  const groupError = firstError(names.map((g) => groups[g]));
  const rows = useMemo(
    () =>
      (plan ?? []).map((p) => {
        const g = groups[p.group]?.value;
        const agg = aggregateGroup(g && g.group === p.group ? g.runs : p.members.map((m) => ({ id: m.id, seed: m.seed, state: m.state, valRelL2: null, valRelL2Decoded: null })));
        return { ...p, agg };
      }),
    [plan, groups],
  );
  return { runs, base, key, runName, dataName, plan, rows, paper, configError, groupError: groupError ? `Reading the seed groups failed: ${groupError}` : null };
}

export type AblationRow = ReturnType<typeof useAblationPlan>['rows'][number];

/** The run a variant's error fields come from: its median finished seed (logic/ablation-results.ts medianSeedRun). */
export const fieldsRun = (r: { members: RunSummary[] }) => medianSeedRun(r.members);
