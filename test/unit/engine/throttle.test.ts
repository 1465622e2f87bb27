// The live-metrics throttle: never more than one message per 50 ms, every step delivered in order.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { MetricsThrottle } from '../../../main/engine/metrics-throttle';
import type { StepRecord, EpochRecord } from '../../../main/train/trainer';

test('MetricsThrottle: <= 20 messages/s, no step lost, epoch records carried', async () => {
  const sent: { t: number; steps: number[]; epoch?: number }[] = [];
  const th = new MetricsThrottle((steps, epoch) => sent.push({ t: performance.now(), steps: steps.map((s) => s.step), ...(epoch ? { epoch: epoch.epoch } : {}) }), 50, () => performance.now());
  const step = (n: number) => ({ type: 'step', epoch: 1, step: n, loss: 1, relL2: 1, lr: 1e-3, gradNorm: 1, stepMs: 1 }) as StepRecord;
  const t0 = performance.now();
  let n = 0;
  while (performance.now() - t0 < 600) {
    th.step(step(++n));
    if (n % 50 === 0) th.epoch({ epoch: n / 50 } as EpochRecord);
    await new Promise((r) => setTimeout(r, 1));
  }
  await th.drain();
  const all = sent.flatMap((m) => m.steps);
  assert.deepEqual(all, Array.from({ length: n }, (_, i) => i + 1), 'every step, in order, once');
  for (let i = 1; i < sent.length; i++) assert.ok(sent[i]!.t - sent[i - 1]!.t >= 50, `messages ${sent[i]!.t - sent[i - 1]!.t} ms apart`);
  assert.ok(sent.length <= Math.ceil((performance.now() - t0) / 50) + 1, `${sent.length} messages`);
  assert.deepEqual(sent.filter((m) => m.epoch).map((m) => m.epoch), Array.from({ length: Math.floor(n / 50) }, (_, i) => i + 1));
});

test('MetricsThrottle: epochs that end within one interval each leave in a message of their own, in order, with their steps', async () => {
  const sent: { t: number; steps: number[]; epoch?: number }[] = [];
  const th = new MetricsThrottle((steps, epoch) => sent.push({ t: performance.now(), steps: steps.map((s) => s.step), ...(epoch ? { epoch: epoch.epoch } : {}) }), 50, () => performance.now());
  const step = (n: number, e: number) => ({ type: 'step', epoch: e, step: n, loss: 1, relL2: 1, lr: 1e-3, gradNorm: 1, stepMs: 1 }) as StepRecord;
  // three epochs of two steps each, all within a millisecond (a tiny run in the engine thread)
  for (let e = 1; e <= 3; e++) {
    th.step(step(2 * e - 1, e));
    th.step(step(2 * e, e));
    th.epoch({ epoch: e } as EpochRecord);
  }
  th.step(step(7, 4));
  await th.drain();
  // the first step leaves at once (nothing was sent before it); then one epoch per message
  assert.deepEqual(sent.map((m) => m.epoch), [undefined, 1, 2, 3, undefined]);
  assert.deepEqual(sent.map((m) => m.steps), [[1], [2], [3, 4], [5, 6], [7]]);
  for (let i = 1; i < sent.length; i++) assert.ok(sent[i]!.t - sent[i - 1]!.t >= 49, `messages ${sent[i]!.t - sent[i - 1]!.t} ms apart`);
});
