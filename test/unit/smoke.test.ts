import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as tf from '@tensorflow/tfjs';

test('tfjs cpu backend computes a gradient', async () => {
  await tf.setBackend('cpu');
  const g = tf.grad((x: tf.Tensor) => x.square().sum())(tf.tensor1d([1, 2, 3]));
  assert.deepEqual(Array.from(await g.data()), [2, 4, 6]);
});
