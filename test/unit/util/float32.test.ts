// The float32 limit every stored value is checked against (main/util/float32.ts).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { FLOAT32_MAX, firstNonFloat32 } from '../../../main/util/float32';

test('firstNonFloat32: NaN, +-Infinity and |v| > FLOAT32_MAX are found; the limit itself and -0 are finite', () => {
  assert.equal(FLOAT32_MAX, Math.fround(FLOAT32_MAX));
  assert.equal(Math.fround(FLOAT32_MAX * (1 + 2 ** -20)), Infinity, 'just above rounds to Infinity in float32');
  assert.equal(firstNonFloat32([0, -0, 1, FLOAT32_MAX, -FLOAT32_MAX]), -1);
  assert.equal(firstNonFloat32([1, 2, 1e308]), 2);
  assert.equal(firstNonFloat32([-1e39]), 0);
  assert.equal(firstNonFloat32([1, NaN]), 1);
  assert.equal(firstNonFloat32(Float32Array.of(1, Infinity)), 1);
  assert.equal(firstNonFloat32([]), -1);
});
