// Empty plots: no axes from 0.1 to 10k before data, a "No data yet" note instead.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { emptyLayout, isEmptyFigure } from '../../../renderer/src/plots/empty-plot';
import { lineTrace, heatmapTrace } from '../../../renderer/src/plots/traces';

test('a figure is empty with no traces, empty traces or only NaN; any finite value makes it non-empty', () => {
  assert.equal(isEmptyFigure([]), true);
  assert.equal(isEmptyFigure([lineTrace({ x: [], y: [] }), { type: 'scatter', x: [NaN], y: [NaN] }]), true);
  assert.equal(isEmptyFigure([lineTrace({ x: [], y: [] }), lineTrace({ y: [0.5] })]), false);
  assert.equal(isEmptyFigure([heatmapTrace({ values: new Float32Array([1, 2, 3, 4]), nx: 2, ny: 2 })]), false);
  assert.equal(isEmptyFigure([{ type: 'bar', x: ['a'], y: [1] }]), false);
  assert.equal(isEmptyFigure([{ type: 'parcoords', dimensions: [{ label: 'lr', values: [1e-3] }] }]), false);
});

test('the empty layout hides every axis (the caller\'s settings kept) and adds the note beside its own annotations', () => {
  const l = emptyLayout({ xaxis: { title: 'step' }, yaxis: { type: 'log' }, yaxis2: { overlaying: 'y' }, annotations: [{ text: 'a' }] });
  for (const k of ['xaxis', 'yaxis', 'yaxis2']) assert.equal(l[k].visible, false, k);
  assert.equal(l.xaxis.title, 'step');
  assert.equal(l.yaxis.type, 'log');
  assert.deepEqual(l.annotations.map((a: { text: string }) => a.text), ['a', 'No data yet']);
  const d = emptyLayout(undefined);
  assert.equal(d.xaxis.visible, false);
  assert.equal(d.yaxis.visible, false);
});
