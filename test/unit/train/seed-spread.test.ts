// seedSpread on predictions whose spread is known by hand.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { seedSpread } from '../../../main/train/seed-spread';

test('seedSpread: sample std per point, ||std|| / ||mean||, each member from the mean', () => {
  // two members: 1 +- 0.1 and 2 +- 0.2 at two points; mean (1, 2), sample std = |a - b| / sqrt(2)
  const r = seedSpread([[[1.1, 2.2]], [[0.9, 1.8]]]);
  assert.ok(Math.abs(r.std[0]![0]! - 0.2 / Math.SQRT2) < 1e-12);
  assert.ok(Math.abs(r.std[0]![1]! - 0.4 / Math.SQRT2) < 1e-12);
  assert.ok(Math.abs(r.relative - Math.sqrt(0.02 + 0.08) / Math.sqrt(5)) < 1e-12);
  assert.ok(Math.abs(r.fromMean[0]! - Math.sqrt(0.05) / Math.sqrt(5)) < 1e-12);
  assert.ok(Math.abs(r.fromMean[0]! - r.fromMean[1]!) < 1e-12);
});

test('seedSpread: equal predictions have none; one member has none; shapes must agree', () => {
  assert.equal(seedSpread([[[1, 2], [3]], [[1, 2], [3]]]).relative, 0);
  assert.deepEqual(seedSpread([[[1, 2]]]).std, [[0, 0]]);
  assert.throws(() => seedSpread([[[1, 2]], [[1]]]), /member 1's prediction has another shape/);
  assert.throws(() => seedSpread([]), /no predictions/);
});
