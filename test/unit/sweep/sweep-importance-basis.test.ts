// Importance compares trials at one budget (it used to mix trials pruned at 2 epochs with trials
// that ran 8): with pruning, the validation relL2 at the deepest rung every ended trial reached, said
// in words; without, each trial's best over its full epochs. And the planned trial counts the list
// and the detail show (grid: its size times the seeds within the budget; otherwise at most).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { analyzeSweep, importanceBasis } from '../../../main/sweep/sweep-analysis';
import { parseSweepConfig } from '../../../main/sweep/sweep-config';
import { plannedTrials } from '../../../main/sweep/sampler';
import type { SweepState } from '../../../main/sweep/sweep-state';

type Trial = SweepState['trials'][number];
const trial = (i: number, state: Trial['state'], best: number, epochs: number, rungs: [number, number, 'continue' | 'prune'][]): Trial => ({
  runId: `r${i}`, config: i, seedIndex: 0, seed: 42, state, rungs: [2, 4], best, epochs, wallSeconds: 1,
  rungHistory: rungs.map(([epoch, valRelL2, decision]) => ({ epoch, valRelL2, decision })),
});

test('with pruned trials, importance reads each trial at the deepest rung all ended trials reached', () => {
  const ended = [
    trial(0, 'done', 0.01, 8, [[2, 0.5, 'continue'], [4, 0.2, 'continue']]),
    trial(1, 'pruned', 0.4, 4, [[2, 0.6, 'continue'], [4, 0.4, 'prune']]),
    trial(2, 'done', 0.02, 8, [[2, 0.55, 'continue'], [4, 0.25, 'continue']]),
  ];
  const b = importanceBasis(ended);
  assert.deepEqual(b.rows.map((r) => r.value), [0.2, 0.4, 0.25]);
  assert.equal(b.basis.epochs, 4);
  assert.equal(b.basis.trials, 3);
  assert.match(b.basis.text, /over 3 trials at epoch 4, the deepest rung all of them reached/);
  // one pruned at the first rung: the common rung is 2
  const early = [...ended, trial(3, 'pruned', 0.9, 2, [[2, 0.9, 'prune']])];
  assert.equal(importanceBasis(early).basis.epochs, 2);
  assert.deepEqual(importanceBasis(early).rows.map((r) => r.value), [0.5, 0.6, 0.55, 0.9]);
});

test('without pruning, importance reads each trial\'s best over its full epochs, and says so', () => {
  const b = importanceBasis([trial(0, 'done', 0.1, 8, []), trial(1, 'done', 0.2, 8, [])]);
  assert.deepEqual(b.rows.map((r) => r.value), [0.1, 0.2]);
  assert.deepEqual(b.basis, { epochs: 8, trials: 2, text: 'over 2 trials that ran their full 8 epochs (best validation relL2)' });
  // pruned trials with no rung in common with the others: only the finished ones
  const mixed = importanceBasis([trial(0, 'done', 0.1, 8, [[3, 0.3, 'continue']]), trial(1, 'pruned', 0.5, 2, [[2, 0.5, 'prune']]), trial(2, 'done', 0.2, 8, [[3, 0.4, 'continue']])]);
  assert.deepEqual(mixed.rows.map((r) => r.trial.runId), ['r0', 'r2']);
  assert.match(mixed.basis.text, /pruned trials left out: no rung all reached/);
});

test('analyzeSweep carries the basis with its importance', () => {
  const sweep = parseSweepConfig({ base: { data: { kind: 'synthetic', grid: [8], train: 2, val: 1 }, epochs: 8 }, axes: [{ path: 'optimizer.lr', values: [0.001, 0.002, 0.003, 0.004] }] }, 'sweep.json');
  const trials = [0.4, 0.3, 0.2, 0.1].map((v, i) => trial(i, i === 0 ? 'pruned' : 'done', v / 10, i === 0 ? 4 : 8, [[2, v + 0.5, 'continue'], [4, v, i === 0 ? 'prune' : 'continue']]));
  const state: SweepState = { version: 1, id: 's', name: 's', createdAt: '', status: 'done', wallSeconds: 1, configs: [0.001, 0.002, 0.003, 0.004].map((v, index) => ({ index, params: { 'optimizer.lr': v } })), trials } as SweepState;
  const a = analyzeSweep(sweep, state);
  assert.equal(a.importanceBasis.epochs, 4);
  assert.equal(a.importance[0]!.correlation !== null && a.importance[0]!.correlation < -0.99, true, JSON.stringify(a.importance));  // four trials and one axis: no tree can split 4 rows into leaves of 2 and gain, so the caption says why the forest's column is empty
  if (a.importance.every((r) => r.importance === null)) assert.match(a.importanceBasis.text, /; no random-forest importance: .*correlation only$/);
  // fewer than 4 trials: said so
  const three = analyzeSweep(sweep, { ...state, trials: trials.slice(1) } as SweepState);
  assert.deepEqual(three.importance.map((r) => r.importance), [null]);
  assert.match(three.importanceBasis.text, /no random-forest importance: it needs at least 4 trials, correlation only$/);
});

test('planned trials: a grid\'s size times the seeds, cut by maxTrials in whole configurations; random and TPE at most their budget', () => {
  const base = { data: { kind: 'synthetic', grid: [8], train: 2, val: 1 }, epochs: 2 };
  const axes = [{ path: 'model.width', values: [4, 8] }, { path: 'optimizer.lr', values: [0.001, 0.01] }];
  assert.deepEqual(plannedTrials(parseSweepConfig({ base, axes, seeds: 2 })), { planned: 8, atMost: 8 });
  assert.deepEqual(plannedTrials(parseSweepConfig({ base, axes, seeds: 2, budget: { maxTrials: 5 } })), { planned: 4, atMost: 4 });
  assert.deepEqual(plannedTrials(parseSweepConfig({ base, axes, method: 'random', seeds: 2, budget: { maxTrials: 5 } })), { planned: null, atMost: 4 });
  assert.deepEqual(plannedTrials(parseSweepConfig({ base, axes, method: 'tpe', budget: { maxWallSeconds: 60 } })), { planned: null, atMost: null });
});
