// The Training view's system plot layouts: learning rate in its own strip with short labels,
// memory on nice ticks with a unit and a range ending on the top tick.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { gradNormLayout, memoryScale, niceTicks, rateLabel } from '../../../renderer/src/plots/training-layouts';

test('nice ticks: 1-2-5 steps from 0 up to the first tick at or above the maximum', () => {
  assert.deepEqual(niceTicks(879, 5), [0, 200, 400, 600, 800, 1000]);
  assert.deepEqual(niceTicks(1.3), [0, 0.5, 1, 1.5]);
  assert.deepEqual(niceTicks(0.001, 2), [0, 0.0005, 0.001]);
  assert.deepEqual(niceTicks(0), [0, 1], 'no data: one unit, not an empty axis');
});

test('memory axis: 879 MiB gets ticks 0/200/.../1000 MiB (not 0/440/879); 3.2 GiB switches to GiB', () => {
  const m = memoryScale([879 * 2 ** 20, 512 * 2 ** 20]);
  assert.equal(m.unit, 'MiB');
  assert.equal(m.divisor, 2 ** 20);
  assert.deepEqual(m.axis.tickvals, [0, 200, 400, 600, 800, 1000]);
  assert.deepEqual(m.axis.range, [0, 1000]);
  assert.equal(m.axis.title, 'Memory (MiB)');
  const g = memoryScale([3.2 * 2 ** 30, Number.NaN]);
  assert.equal(g.unit, 'GiB');
  assert.equal(g.axis.title, 'Memory (GiB)');
  assert.deepEqual(g.axis.tickvals, [0, 1, 2, 3, 4]);
});

test('learning rate: its own subplot below the gradient norm, three ticks labelled 1e-3, never overlaid', () => {
  const l = gradNormLayout({ title: 'step' }, 'log', [1e-3, 8e-4, 5e-4]);
  const y = l.yaxis as Record<string, any>;
  const y2 = l.yaxis2 as Record<string, any>;
  assert.equal(y2.overlaying, undefined, 'not drawn over the gradient-norm axis');
  assert.ok(y2.domain[1] < y.domain[0], 'the LR strip lies below the gradient-norm plot');
  assert.deepEqual(y2.tickvals, [0, 0.0005, 0.001]);
  assert.deepEqual(y2.ticktext, ['0', '5e-4', '1e-3']);
  assert.equal(y.type, 'log');
  assert.equal(y.dtick, 'D2', 'log gradient norm: labels at 1, 2, 5 only (every minor tick overlapped in the short panel)');
  assert.equal((l.xaxis as Record<string, unknown>).anchor, 'y2', 'the step axis sits under the bottom strip');
  // A constant rate still gets a range from 0 that ends on a tick above it.
  const c = gradNormLayout({}, 'linear', [3e-4, 3e-4]).yaxis2 as Record<string, any>;
  assert.deepEqual(c.range, [0, 0.0004]);
  assert.equal(rateLabel(0.00025), '2.5e-4');
});
