// The engine's step-based ETA: none before the 3rd step, then the median step interval times the
// steps left (a pause is one long interval the median ignores), plus each remaining epoch's
// validation once an epoch has shown how long it takes.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { StepEta, ETA_MIN_STEPS } from '../../../main/engine/step-eta';

test('no ETA before the 3rd step; then steps left x median interval', () => {
  let t = 0;
  const eta = new StepEta(() => t);
  assert.equal(ETA_MIN_STEPS, 3);
  eta.step(); // step 1 at t=0
  assert.equal(eta.eta(1, 1, 10, 10), null);
  t = 100; eta.step();
  assert.equal(eta.eta(2, 1, 10, 10), null);
  t = 200; eta.step();
  // 100 steps in all, 3 done, 100 ms each
  assert.equal(eta.eta(3, 1, 10, 10), 9.7);
  t = 10_200; eta.step(); // a 10 s pause between steps 3 and 4
  t = 10_300; eta.step();
  assert.equal(eta.msPerStep(), 100);
  assert.ok(Math.abs(eta.eta(5, 1, 10, 10)! - 9.5) < 1e-9);
});

test('after an epoch, its validation time is added for each epoch left', () => {
  let t = 0;
  const eta = new StepEta(() => t);
  for (let i = 0; i < 10; i++) { eta.step(); t += 100; }
  eta.epoch(1.5, 10); // 10 steps x 0.1 s + 0.5 s validation
  // after epoch 1 (step 10): 90 steps x 0.1 s + 9 validations x 0.5 s
  assert.ok(Math.abs(eta.eta(10, 2, 10, 10)! - 13.5) < 1e-9);
});
