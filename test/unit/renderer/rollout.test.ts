// Pure helpers of the Rollout view: evenly spaced figure steps, the typed step list, the ±1 std
// band trace, the paper-figure composition and reading a run's rollout lengths from its config.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { evenlySpacedSteps, parseSteps, stepWindow } from '../../../renderer/src/plots/rollout-steps';
import { stepBandTrace, stepErrorTraces } from '../../../renderer/src/plots/step-error-traces';
import { highlightColumn, rolloutPaperFigure, rolloutPaperSize } from '../../../renderer/src/plots/rollout-paper-figure';
import { absError } from '../../../renderer/src/plots/abs-error';
import { offersRollout, rolloutSpecOf } from '../../../renderer/src/logic/rollout-spec';

test('evenly spaced steps include the first and last and never repeat', () => {
  assert.deepEqual(evenlySpacedSteps(10, 5), [1, 3, 6, 8, 10]);
  assert.deepEqual(evenlySpacedSteps(3, 5), [1, 2, 3]);
  assert.deepEqual(evenlySpacedSteps(20, 4), [1, 7, 14, 20]);
  assert.deepEqual(evenlySpacedSteps(7, 1), [7]);
  assert.deepEqual(evenlySpacedSteps(0, 4), []);
  for (let t = 1; t <= 30; t++) {
    for (let k = 1; k <= 8; k++) {
      const s = evenlySpacedSteps(t, k);
      assert.equal(s.length, Math.min(k, t), `${k} of ${t}`);
      assert.equal(new Set(s).size, s.length);
      assert.equal(s[s.length - 1], t);
    }
  }
});

test('typed steps: sorted, unique, within 1..T; bad entries named', () => {
  assert.deepEqual(parseSteps('5, 1 3,3', 5), { steps: [1, 3, 5] });
  assert.match((parseSteps('0, 2', 5) as { error: string }).error, /'0' is not a step from 1 to 5/);
  assert.match((parseSteps('2, x', 5) as { error: string }).error, /'x'/);
  assert.match((parseSteps('6', 5) as { error: string }).error, /from 1 to 5/);
  assert.match((parseSteps(' ', 5) as { error: string }).error, /one or more steps/);
  assert.match((parseSteps('1,2,3,4,5,6,7,8,9,10,11', 20) as { error: string }).error, /at most 10/);
});

test('filmstrip window: all steps when they fit, else a window around the shown step inside 1..T', () => {
  assert.deepEqual(stepWindow(3, 2), [1, 2, 3]);
  assert.deepEqual(stepWindow(20, 1), [1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
  assert.deepEqual(stepWindow(20, 12), [7, 8, 9, 10, 11, 12, 13, 14, 15, 16]);
  assert.deepEqual(stepWindow(20, 20), [11, 12, 13, 14, 15, 16, 17, 18, 19, 20]);
  for (let k = 1; k <= 20; k++) assert.ok(stepWindow(20, k).includes(k));
});

test('the ±1 std band is one closed polygon of 2T points, floored at zero, around the mean', () => {
  const mean = [0.1, 0.2, 0.4];
  const std = [0.05, 0.3, 0.1];
  const b = stepBandTrace(mean, std);
  assert.deepEqual(b.x, [1, 2, 3, 3, 2, 1]);
  const y = b.y as number[];
  assert.deepEqual(y.map((v) => +v.toFixed(10)), [0.15, 0.5, 0.5, 0.3, 0, 0.05]);
  assert.equal(b.fill, 'toself');
  assert.throws(() => stepBandTrace([1], [1, 2]), /1 means, 2 stds/);
  const all = stepErrorTraces({ mean, std, trajectory: [0.1, 0.3, 0.5], trajectoryName: 'trajectory 0 (best)', current: 2 });
  assert.deepEqual(all.map((t) => t.name), ['±1 std (validation)', 'mean (validation)', 'trajectory 0 (best)', 'shown step (2)']);
  assert.deepEqual(all[2]!.x, [1, 2, 3]);
  assert.deepEqual([all[3]!.x, all[3]!.y], [[2], [0.3]]);
  // One validation trajectory: no (empty) band; the legend says "1 trajectory".
  const one = stepErrorTraces({ mean, std: [0, 0, 0], n: 1 });
  assert.deepEqual(one.map((t) => t.name), ['validation (1 trajectory, no ±1 std)']);
});

test('paper figure: rows reference / prediction / |error| by chosen steps, two colour axes, "t = k" titles', () => {
  const nx = 4;
  const ny = 3;
  const frame = (t: number, shift = 0) => Array.from({ length: nx * ny }, (_, i) => t + i / 10 + shift);
  const reference = [1, 2, 3, 4].map((t) => frame(t));
  const prediction = [1, 2, 3, 4].map((t) => frame(t, 0.5 * t));
  const f = rolloutPaperFigure({ reference, prediction, grid: [nx, ny] }, [1, 4]);
  assert.equal(f.data.length, 6);
  assert.deepEqual(f.data.map((d) => d.coloraxis), ['coloraxis', 'coloraxis', 'coloraxis', 'coloraxis', 'coloraxis2', 'coloraxis2']);
  assert.deepEqual(f.data.map((d) => d.xaxis), ['x', 'x2', 'x3', 'x4', 'x5', 'x6']);
  const z = f.data[5]!.z as Float64Array[];
  assert.equal(z.length, ny);
  assert.equal(z[0]!.length, nx);
  assert.ok(Math.abs(z[2]![3]! - 2) < 1e-12, '|error| of step 4 is 0.5*4');
  const layout = f.layout as any;
  assert.deepEqual([layout.coloraxis.cmin, layout.coloraxis.cmax], [1, 4 + 1.1 + 2]);
  assert.deepEqual([layout.coloraxis2.cmin, layout.coloraxis2.cmax], [0, 2]);
  assert.equal(layout.coloraxis.colorbar.title.text, 'w', 'the vorticity is w, not the file\'s u');
  const texts = layout.annotations.map((a: any) => a.text);
  assert.deepEqual(texts, ['Reference', 'Prediction', '|Error|', 't = 1', 't = 4']);
  assert.equal(layout.xaxis3.visible, false);
  assert.ok(layout.xaxis.domain[1] < layout.xaxis2.domain[0], 'columns do not overlap');
  assert.ok(layout.yaxis.domain[0] > layout.yaxis3.domain[1], 'reference row above prediction row');
  assert.throws(() => rolloutPaperFigure({ reference, prediction, grid: [nx, ny] }, [5]), /step 5 is outside 1\.\.4/);
  // Laid out in pixels: at its natural size the tiles are square.
  const { width, height } = rolloutPaperSize(2);
  const px = (d: number[], n: number) => (d[1]! - d[0]!) * n;
  assert.ok(Math.abs(px(layout.xaxis.domain, width - 86 - 10) - px(layout.yaxis.domain, height - 30 - 8)) < 1e-9);
  // The filmstrip outlines the shown column; the figure itself is not changed.
  const hl = highlightColumn(layout, [1, 4], 4) as any;
  assert.equal(hl.shapes.length, 1);
  assert.ok(hl.shapes[0].x0 < layout.xaxis2.domain[0] && hl.shapes[0].x1 > layout.xaxis2.domain[1]);
  assert.ok(hl.shapes[0].y0 < layout.yaxis6.domain[0] && hl.shapes[0].y1 > layout.yaxis2.domain[1], 'spans all three rows');
  assert.equal(hl.annotations[4].font.color, '#d55e00');
  assert.equal(layout.shapes, undefined);
  assert.equal(highlightColumn(layout, [1, 4], 2), layout, 'a step outside the strip outlines nothing');
  assert.throws(() => rolloutPaperFigure({ reference, prediction, grid: [12] }, [1]), /2D grid/);
  assert.deepEqual(Array.from(absError([1, -2], [0.5, 1])), [0.5, 3]);
});

test('rollout spec: recorded data wins, then the data spec; operator runs are not rollouts', () => {
  assert.deepEqual(rolloutSpecOf({ resolvedData: { autoregressive: { tIn: 10, tOut: 10 } }, data: { kind: 'dataset', id: 'x' } }), { autoregressive: true, tIn: 10, tOut: 10 });
  assert.deepEqual(rolloutSpecOf({ resolvedData: { autoregressive: null }, data: { kind: 'generate', benchmark: 'darcy' } }), { autoregressive: false, tIn: null, tOut: null });
  assert.deepEqual(rolloutSpecOf({ data: { kind: 'generate', benchmark: 'navier-stokes', tIn: 3, tOut: 4 } }), { autoregressive: true, tIn: 3, tOut: 4 });
  assert.deepEqual(rolloutSpecOf({ data: { kind: 'synthetic', task: 'autoregressive', grid: [8, 8] } }), { autoregressive: true, tIn: 3, tOut: 3 });
  assert.deepEqual(rolloutSpecOf({ data: { kind: 'synthetic', grid: [8, 8] } }), { autoregressive: false, tIn: null, tOut: null });
  assert.equal(rolloutSpecOf({ data: { kind: 'dataset', id: 'ns' } }).autoregressive, null);
});

test('the Rollout picker offers only runs that roll out: Navier–Stokes data (generated, resolved or a stored NS set), never Darcy or Burgers', () => {
  assert.equal(offersRollout({ data: { kind: 'generate', benchmark: 'navier-stokes', preset: 'tiny' } }), true);
  assert.equal(offersRollout({ data: { kind: 'generate', benchmark: 'darcy', preset: 'tiny' } }), false);
  assert.equal(offersRollout({ data: { kind: 'generate', benchmark: 'burgers', preset: 'tiny' } }), false);
  assert.equal(offersRollout({ data: { kind: 'dataset', id: 'navier-stokes-0123456789ab' } }), true);
  assert.equal(offersRollout({ data: { kind: 'dataset', id: 'darcy-0123456789ab' } }), false);
  assert.equal(offersRollout({ data: { kind: 'dataset', id: 'darcy-0123456789ab' }, resolvedData: { autoregressive: null } }), false);
  assert.equal(offersRollout({ data: { kind: 'dataset', id: 'x' }, resolvedData: { autoregressive: { tIn: 3, tOut: 3 } } }), true);
  assert.equal(offersRollout(undefined), false, 'config not read yet');
});
