import { test } from 'node:test';
import assert from 'node:assert/strict';
import { epochX, stepX, validScale, validXMode } from '../../../renderer/src/logic/curve-axes';
import type { EpochMetrics, StepMetrics } from '../../../main/api/contract';

const step = (epoch: number, s: number, stepMs: number): StepMetrics => ({ type: 'step', epoch, step: s, loss: 1, relL2: 1, lr: 1e-3, gradNorm: 0.5, stepMs });
const epoch = (e: number, epochSeconds: number) => ({ type: 'epoch', epoch: e, epochSeconds }) as unknown as EpochMetrics;

const steps = [step(1, 1, 100), step(1, 2, 300), step(2, 3, 200), step(2, 4, 200)];
const epochs = [epoch(1, 1.5), epoch(2, 2)];

test('curve x by step, epoch and wall time', () => {
  assert.deepEqual(stepX(steps, epochs, 'step'), [1, 2, 3, 4]);
  assert.deepEqual(stepX(steps, epochs, 'epoch'), [0.5, 1, 1.5, 2]);
  // Epoch 2 starts after epoch 1's 1.5 s (evaluation included), then its steps' own times.
  assert.deepEqual(stepX(steps, epochs, 'wall'), [0.1, 0.4, 1.7, 1.9]);
  assert.deepEqual(epochX(steps, epochs, 'step'), [2, 4]);
  assert.deepEqual(epochX(steps, epochs, 'epoch'), [1, 2]);
  assert.deepEqual(epochX(steps, epochs, 'wall'), [1.5, 3.5]);
  // An epoch whose steps are not loaded has no step x (drawn as a gap, not at 0).
  assert.deepEqual(epochX([], epochs, 'step'), [null, null]);
});

test('restored axis choices are checked', () => {
  assert.equal(validXMode('wall'), true);
  assert.equal(validXMode('time'), false);
  assert.equal(validScale('log'), true);
  assert.equal(validScale('LOG'), false);
  assert.equal(validScale(null), false);
});
