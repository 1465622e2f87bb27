// An ablation is a sweep, through the real engine process and the service both hosts use (what the
// Ablation view's Launch calls): the variants' sweep is listed by sweeps.list, its trials are the
// runs of the seed groups the Ablation view reads ('<key>/<variant>', named after the base run),
// runs.group aggregates them, and a trial evaluates like any run (the view's error fields).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { engineService } from '../../helpers/engine-service';
import { TrainConfig, type JobSummary, type RunSummary, type SweepDetail, type SweepSummary } from '../../../main/api/contract';
import { ablationSweep, groupLabel, variantConfig, VARIANTS } from '../../../renderer/src/logic/ablation-plan';

process.env.LINO_BACKEND = 'cpu';
// trials in the engine thread: the same TrainingJobs.start path without a worker's tfjs start-up per trial
process.env.LINO_TRAIN_IN_THREAD = '1';
const { service, settled } = engineService();
const base = TrainConfig.parse({ name: 'abl base', seed: 5, data: { kind: 'synthetic', grid: [16], train: 4, val: 2 }, model: { width: 4, depth: 1 }, epochs: 1, batchSize: 2 }) as Record<string, unknown>;

test('the Ablation view\'s launch is a sweep: in sweeps.list, its trials the runs of the variants\' seed groups, evaluated like any run', { timeout: 300_000 }, async () => {
  const configs = VARIANTS.map((v) => variantConfig(base, v, { key: 'r_base', seed: 5, name: 'abl base' })!);
  const s = (await service.call('sweeps.start', { config: ablationSweep(configs, 2) } as never)) as SweepSummary;
  // every run is listed at once, in its group, before any trains (the view's progress list)
  const listed = ((await service.call('runs.list', {})) as RunSummary[]).filter((r) => r.group?.startsWith('r_base/'));
  assert.equal(listed.length, 8);
  const list = (await service.call('sweeps.list', {})) as SweepSummary[];
  assert.ok(list.some((x) => x.id === s.id && x.name === 'ablation r_base' && x.method === 'grid' && x.trials === 8), JSON.stringify(list));

  let d: SweepDetail;
  for (const t0 = Date.now(); ; await new Promise((r) => setTimeout(r, 200))) {
    d = (await service.call('sweeps.get', { id: s.id } as never)) as SweepDetail;
    if (!d.summary.active) break;
    if (Date.now() - t0 > 240_000) throw new Error(`ablation sweep did not end: ${JSON.stringify(d.summary)}`);
  }
  assert.equal(d.summary.status, 'done', d.summary.reason);
  assert.deepEqual(d.state.trials.map((t) => t.state), Array(8).fill('done'));
  const runs = (await service.call('runs.list', {})) as RunSummary[];
  const trialRuns = d.state.trials.map((t) => runs.find((r) => r.id === t.runId)!);
  // the trials are the groups' runs: one run per variant and seed, named after the base run
  assert.deepEqual([...new Set(trialRuns.map((r) => r.group))].sort(), VARIANTS.map((v) => `r_base/${v.key}`).sort());
  assert.deepEqual(trialRuns.map((r) => r.seed).sort(), [5, 5, 5, 5, 6, 6, 6, 6]);
  assert.deepEqual(new Set(trialRuns.map((r) => r.id)), new Set(listed.map((r) => r.id)));
  const noRefl = trialRuns.find((r) => r.group === 'r_base/no-reflection' && r.seed === 6)!;
  assert.equal(noRefl.name, 'abl base/no-reflection (seed 6)');
  assert.equal(groupLabel('r_base/no-reflection', [{ id: 'r_base', name: 'abl base' }]), 'abl base/no-reflection');
  for (const v of VARIANTS) {
    const g = (await service.call('runs.group', { group: `r_base/${v.key}` } as never)) as { runs: { state: string; valRelL2: number | null }[]; valRelL2: { mean: number } | null };
    assert.deepEqual(g.runs.map((r) => r.state), ['done', 'done']);
    assert.ok(g.runs.every((r) => typeof r.valRelL2 === 'number') && g.valRelL2 !== null, `${v.key}: both seeds in the statistics`);
  }
  // a trial's best checkpoint evaluates with fields (the view's error-field grid)
  const full = trialRuns.find((r) => r.group === 'r_base/full')!;
  const job = (await service.call('runs.evaluate', { id: full.id, checkpoint: 'best', split: 'val', fields: true } as never)) as JobSummary;
  const ended = await settled(job.id, 120_000);
  assert.equal(ended.state, 'done', ended.error);
  const res = (ended.result as { resolutions: { fields?: unknown[] }[] }).resolutions[0]!;
  assert.ok((res.fields ?? []).length > 0);
});
