// The traces the views' diagnostics draw (plots/spectrum-traces.ts) and the configuration a seed group
// started from the trust panel inherits (logic/ablation-plan.ts inheritedConfig).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { bandEdgeShapes, stepRelativeTraces, summaryTraces } from '../../../renderer/src/plots/spectrum-traces';
import { inheritedConfig } from '../../../renderer/src/logic/ablation-plan';

const sum = (e: number[], t: number[], rel: { low: number | null; mid: number | null; high: number | null }) => ({
  error: e, truth: t, relative: e.map(() => null), bandRelative: rel, fRmse: { low: 1, mid: 2, high: null },
});

test('summaryTraces: per entry its error (solid or its dash) and its truth (dotted) unless left out; zeros dropped on the log axis', () => {
  const a = sum([1, 0, 2], [4, 5, 0], { low: 0.1, mid: 0.2, high: null });
  const tr = summaryTraces([{ name: 'sample 3', summary: a }, { name: 'mean', summary: a, dash: 'dash', truth: false }]);
  assert.deepEqual(tr.map((t) => t.name), ['error: sample 3', 'truth: sample 3', 'error: mean']);
  assert.deepEqual(tr[0]!.y, [1, null, 2]);
  assert.deepEqual(tr[1]!.y, [4, 5, null]);
  assert.equal((tr[1]!.line as { dash: string }).dash, 'dot');
  assert.equal((tr[2]!.line as { dash: string }).dash, 'dash');
});

test('stepRelativeTraces: three bands against step for the trajectory (solid) and the split (dashed)', () => {
  const steps = [sum([1], [1], { low: 0.1, mid: 0.2, high: 0.3 }), sum([1], [1], { low: 0.2, mid: 0.4, high: null })];
  const tr = stepRelativeTraces(steps, steps);
  assert.deepEqual(tr.map((t) => t.name), ['low, this trajectory', 'mid, this trajectory', 'high, this trajectory', 'low, split mean', 'mid, split mean', 'high, split mean']);
  assert.deepEqual(tr[0]!.x, [1, 2]);
  assert.deepEqual(tr[2]!.y, [0.3, null]);
  assert.equal(stepRelativeTraces(null, steps).length, 3);
});

test('bandEdgeShapes: the edges that fall on the spectrum; inheritedConfig drops what the store set', () => {
  assert.deepEqual(bandEdgeShapes({ iLow: 4, iHigh: 12 }, 14).map((s) => s.x0), [3.5, 11.5]);
  assert.deepEqual(bandEdgeShapes({ iLow: 4, iHigh: 12 }, 4).map((s) => s.x0), []);
  assert.deepEqual(inheritedConfig({ id: 'r1', name: 'a', group: 'g', seed: 3, createdAt: 'x', resolvedData: {}, epochs: 2, model: { width: 4 } }), { epochs: 2, model: { width: 4 } });
});
