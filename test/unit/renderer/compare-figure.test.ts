// Fields compare exported as one figure: reference + predictions on one colour axis, errors on another.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { compareFigure } from '../../../renderer/src/plots/compare-figure';

test('one figure: 1 + 2 runs x (prediction, |error|) = 5 panels, two shared colour axes, titles as annotations', () => {
  const f = (v: number) => new Float32Array(6).fill(v);
  const fig = compareFigure({ grid: [2, 3], reference: f(1), runs: [{ name: 'lino', prediction: f(1.1), error: f(0.1) }, { name: 'fno', prediction: f(0.9), error: f(0.2) }], fieldRange: [0, 2], errorRange: [0, 0.2], target: 'u' });
  assert.equal(fig.data.length, 5);
  assert.deepEqual(fig.data.map((t) => t.coloraxis), ['coloraxis', 'coloraxis', 'coloraxis2', 'coloraxis', 'coloraxis2']);
  assert.deepEqual(new Set(fig.data.map((t) => t.xaxis)).size, 5, 'each panel on its own axes');
  const l = fig.layout as Record<string, any>;
  assert.deepEqual([l.coloraxis.cmin, l.coloraxis.cmax, l.coloraxis2.cmin, l.coloraxis2.cmax], [0, 2, 0, 0.2]);
  assert.deepEqual(l.annotations.map((a: { text: string }) => a.text), ['Reference', 'lino: prediction', 'lino: |error|', 'fno: prediction', 'fno: |error|']);
  // panels do not overlap: the error row lies below the prediction row
  assert.ok(l.yaxis3.domain[1] < l.yaxis2.domain[0]);
  assert.ok(l.xaxis.domain[1] < l.xaxis2.domain[0]);
  // each heatmap is the stored [nx, ny] field drawn ny rows by nx columns
  assert.equal((fig.data[0]!.z as Float64Array[]).length, 3);
  assert.ok(fig.size.width > fig.size.height);
});
