// Sweeps as Optuna splits them: the runner asks a Sampler for configurations and a Pruner at the
// rungs, and names no method itself. Each sampler's bounds and plannability, and each pruner's rungs
// and decisions, through the interfaces.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { parseSweepConfig } from '../../../main/sweep/sweep-config';
import { GridSampler, RandomSampler, TpeSampler, samplerOf } from '../../../main/sweep/sampler';
import { AshaPruner, NoPruner, prunerOf } from '../../../main/sweep/pruner';
import { gridSize } from '../../../main/sweep/space';

const base = { data: { kind: 'synthetic', grid: [8, 8], train: 4, val: 2 }, epochs: 9, model: { width: 4, depth: 1 } };
const axes = [{ path: 'model.width', values: [4, 6, 8] }, { path: 'optimizer.lr', logRange: [1e-4, 1e-2], steps: 2 }];
const sweep = (extra: Record<string, unknown>) => parseSweepConfig({ name: 's', base, axes, ...extra }, 'sweep.json');

test('samplers: the grid gives every combination and is bounded; random needs maxTrials to be planned; TPE cannot be planned', () => {
  const grid = samplerOf(sweep({ method: 'grid' }));
  assert.equal(grid.constructor, GridSampler);
  assert.equal(grid.total, gridSize(sweep({}).axes));
  assert.equal(grid.total, 6);
  const seen = new Set(Array.from({ length: 6 }, (_, k) => JSON.stringify(grid.suggest(k, []))));
  assert.equal(seen.size, 6, 'six different configurations');
  assert.equal(grid.unplannable, null);

  const random = samplerOf(sweep({ method: 'random' }));
  assert.equal(random.constructor, RandomSampler);
  assert.equal(random.total, null);
  assert.match(random.unplannable ?? '', /budget\.maxTrials/);
  assert.equal(samplerOf(sweep({ method: 'random', budget: { maxTrials: 4 } })).unplannable, null);
  assert.deepEqual(random.suggest(3, []), samplerOf(sweep({ method: 'random' })).suggest(3, []), 'the k-th draw repeats on a resume');

  const tpe = samplerOf(sweep({ method: 'tpe' }));
  assert.equal(tpe.constructor, TpeSampler);
  assert.match(tpe.unplannable ?? '', /TPE/);
  const p = tpe.suggest(0, []);
  assert.ok([4, 6, 8].includes(p['model.width'] as number));
});

test('pruners: none has no rungs and never stops a trial; ASHA stops the worse half at its rungs', () => {
  const none = prunerOf(sweep({}));
  assert.equal(none.constructor, NoPruner);
  assert.deepEqual(none.rungs(9), []);
  assert.equal(none.decide(1e9, [0.1, 0.2]), 'continue');
  const asha = prunerOf(sweep({ earlyStopping: { minEpochs: 1, eta: 2, minTrialsPerRung: 2 } }));
  assert.equal(asha.constructor, AshaPruner);
  assert.deepEqual(asha.rungs(9), [1, 2, 4, 8]);
  assert.equal(asha.decide(0.5, [0.1]), 'prune');
  assert.equal(asha.decide(0.05, [0.1]), 'continue');
});

test('the runner names no search method and no pruning rule: it asks its Sampler and its Pruner', () => {
  const src = readFileSync(new URL('../../../main/sweep/sweep-runner.ts', import.meta.url), 'utf8').replace(/^\s*(\/\/|\*).*$/gm, '');
  assert.doesNotMatch(src, /method\s*===|'tpe'|'random'|'grid'|ashaDecision|ashaRungs|earlyStopping/);
});
