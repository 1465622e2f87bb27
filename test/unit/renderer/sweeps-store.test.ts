// The Sweeps view's two ways out of a sweep, against a recording API: "Train the best configuration
// fully" is one train.start of the base with the best configuration's values and the epochs, seeds
// (new ones by default) and name asked for;
// "Compare in Runs" opens the Runs view with the best configurations picked, by their seed groups
// (a preset's own groups, as the ablation's '<key>/<variant>') or, with one seed, their runs.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { SweepDetail } from '../../../main/api/contract';
import { useApp } from '../../../renderer/src/stores/app-store';
import { usePersistedStore } from '../../../renderer/src/stores/persisted-state';
import { compareInRuns, trainBest } from '../../../renderer/src/queries/sweeps';
import { trainBestDefaults } from '../../../renderer/src/logic/sweep-form';

const base = { name: 'b', data: { kind: 'synthetic', grid: [16], train: 8, val: 2 }, model: { width: 4, depth: 1 }, epochs: 6 };
const conf = (config: number, mean: number | null, params: Record<string, unknown>) => ({ config, params, mean, std: 0, n: 1 });

function detail(o: { seeds: number; groups?: { group: string; name: string }[] }): SweepDetail {
  const configs = [conf(0, 0.5, { 'model.width': 4, 'optimizer.lr': 0.001 }), conf(1, 0.2, { 'model.width': 8, 'optimizer.lr': 0.01 }), conf(2, null, { 'model.width': 4, 'optimizer.lr': 0.01 })];
  const trials = configs.flatMap((c) => Array.from({ length: o.seeds }, (_, s) => ({ runId: `sw-c${c.config}-s${42 + s}`, config: c.config })));
  return {
    summary: { id: 'sw', name: 'grid-demo' },
    config: { base, seeds: o.seeds, ...(o.groups ? { groups: o.groups } : {}) },
    state: { id: 'sw', trials },
    analysis: { configs, best: configs[1] },
  } as never;
}

test('"Train the best configuration fully": the base with the best values and the epochs, new seeds and name asked for, as one train.start', async () => {
  const calls: [string, any][] = [];
  useApp.setState({ api: { call: async (m: string, p: any) => (calls.push([m, p]), { runId: 'r-best' }), onEvent: () => () => {} } as never });
  const d = detail({ seeds: 2 });
  const asked = { ...trainBestDefaults(d.config, d.summary.name, 1), epochs: '30' };
  assert.equal(await trainBest(d, asked), 'r-best');
  // (other stores may list the runs when the API connects)
  assert.deepEqual(calls.filter(([m]) => m !== 'runs.list'), [['train.start', { config: { ...base, name: 'grid-demo best (c1)', epochs: 30, seed: 44, model: { width: 8, depth: 1 }, optimizer: { lr: 0.01 } }, seeds: 2 }]]);
  await assert.rejects(trainBest({ ...detail({ seeds: 1 }), analysis: { configs: [], best: null } } as never, asked), /no configuration has finished yet/);
});

test('"Compare in Runs": the best configurations with a result, by seed group (a preset\'s own) or run, in the Runs view', () => {
  compareInRuns(detail({ seeds: 2 }));
  assert.deepEqual(usePersistedStore.getState().views['runs.overlay'], ['group:sw-c1', 'group:sw-c0']);
  assert.equal(useApp.getState().view, 'runs');
  compareInRuns(detail({ seeds: 2, groups: [{ group: 'k/full', name: 'b/full' }, { group: 'k/no-reflection', name: 'b/no-reflection' }, { group: 'k/no-refraction', name: 'b/no-refraction' }] }));
  assert.deepEqual(usePersistedStore.getState().views['runs.overlay'], ['group:k/no-reflection', 'group:k/full']);
  compareInRuns(detail({ seeds: 1 }));
  assert.deepEqual(usePersistedStore.getState().views['runs.overlay'], ['run:sw-c1-s42', 'run:sw-c0-s42']);
});
