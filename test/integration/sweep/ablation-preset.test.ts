// The component ablation as a preset of a sweep: the Ablation view's variants become one grid over
// `model.components` whose runs keep the ablation's seed groups ('<key>/<variant>') and names, so
// ablations launched before (by train.start) and after are found by the same group names.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { TrainConfig } from '../../../main/api/contract';
import { parseSweepConfig } from '../../../main/sweep/sweep-config';
import { openOrCreateSweep } from '../../../main/sweep/sweep-state';
import { SweepRunner } from '../../../main/sweep/sweep-runner';
import { RunStore } from '../../../main/runs/run-store';
import { ablationSweep, variantConfig, VARIANTS } from '../../../renderer/src/logic/ablation-plan';

const base = TrainConfig.parse({ name: 'abl base', seed: 5, data: { kind: 'synthetic', grid: [8, 8], train: 4, val: 2 }, model: { width: 4, depth: 1 }, epochs: 1, batchSize: 2 });

test('the ablation preset: a grid over components, every run created at once in its variant\'s seed group with its name and seeds', () => {
  const ws = mkdtempSync(join(tmpdir(), 'lino-abl-sweep-'));
  try {
    const configs = VARIANTS.map((v) => variantConfig(base as Record<string, unknown>, v, { key: 'r_base', seed: 5, name: 'abl base' })!);
    const sweep = parseSweepConfig(ablationSweep(configs, 2), 'ablation');
    assert.equal(sweep.method, 'grid');
    assert.deepEqual(sweep.axes[0], { path: 'model.components', values: configs.map((c) => (c.model as { components: string[] }).components) });
    const { id } = openOrCreateSweep(ws, sweep);
    const planned = new SweepRunner(ws, id, () => Promise.reject(new Error('planning trains nothing'))).planAll();
    assert.equal(planned.length, 8);
    const runs = new RunStore(join(ws, 'runs'));
    const made = planned.map((p) => runs.open(p.run.id).readConfig() as { group: string; name: string; seed: number; model: { components: string[] } });
    assert.deepEqual([...new Set(made.map((c) => c.group))].sort(), VARIANTS.map((v) => `r_base/${v.key}`).sort());
    assert.deepEqual(made.map((c) => c.seed).sort(), [5, 5, 5, 5, 6, 6, 6, 6]);
    const noRefl = made.find((c) => c.group === 'r_base/no-reflection' && c.seed === 6)!;
    assert.equal(noRefl.name, 'abl base/no-reflection (seed 6)');
    assert.ok(!noRefl.model.components.includes('reflection'));
    assert.ok(planned.every((p) => runs.open(p.run.id).readStatus().state === 'queued'));
    // the same launch again is the same sweep (no second set of runs)
    assert.equal(openOrCreateSweep(ws, parseSweepConfig(ablationSweep(configs, 2), 'ablation')).id, id);
  } finally {
    rmSync(ws, { recursive: true, force: true });
  }
});

test('the ablation preset refuses an empty launch', () => {
  assert.throws(() => ablationSweep([], 2), /ablation: no variant to launch/);
});
