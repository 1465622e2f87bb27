// The Light maps view's traces: the dominant branch drawn in its component colour
// whichever branches a block has, the depth strip on one colour range with a switched-off branch
// left as an empty panel, a 1D kernel as a curve with the query point on it, and the query point
// marked on every map (the dominant branch's too).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { LightMapsResult } from '../../../main/api/contract';
import { blockMapTitle, depthStrip, kernelFigure, mapValues, singleFigure, stripWithQueryMarks, withQueryMark } from '../../../renderer/src/plots/light-map-traces';

type Block = LightMapsResult['blocks'][number];
const block = (over: Partial<Block>): Block => ({ components: ['reflection', 'refraction', 'scattering'], gates: [0.3, 0.3, 0.4], contribution: {}, dominant: [], latentNorm: [], ...over });

test('dominant: indices into the block\'s own components become the canonical branch (its colour)', () => {
  // a block without reflection: its index 0 is refraction, drawn as branch 1
  assert.deepEqual(mapValues(block({ components: ['refraction', 'scattering'], dominant: [0, 1, 1] }), 'dominant'), [1, 2, 2]);
  assert.equal(mapValues(block({ components: ['refraction', 'scattering'] }), 'reflectionActivity'), null, 'a switched-off branch has no map');
  assert.deepEqual(mapValues(block({ contribution: { scattering: [1, 2] } }), 'contribution.scattering'), [1, 2]);
});

test('depth strip: one colour range across blocks, a block without the branch an empty panel in its column', () => {
  const r = { grid: [2, 2], blocks: [block({ reflectionActivity: [0, 0.1, 0.2, 0.3] }), block({ components: ['scattering'], dominant: [0, 0, 0, 0] }), block({ reflectionActivity: [0.5, 0.6, 0.7, 0.9] })] } as unknown as LightMapsResult;
  const s = depthStrip(r, 'reflectionActivity');
  assert.equal(s.data.length, 3);
  assert.deepEqual(s.data.map((t) => [t.zmin, t.zmax]), [[0, 0.9], [0, 0.9], [0, 0.9]]);
  assert.deepEqual(s.data.map((t) => t.xaxis ?? 'x'), ['x', 'x2', 'x3']);
  assert.deepEqual((s.data[1]!.z as unknown[]).length, 0, 'block 1: empty');
  assert.equal((s.layout.xaxis3 as { title: string }).title, 'block 3', 'numbered from 1, as in Gates and the paper');
  // Only the first column carries the y title and tick labels: neighbours' "y index" never overlap.
  assert.equal((s.layout.yaxis as { title: string }).title, 'y index');
  for (const k of ['yaxis2', 'yaxis3']) assert.deepEqual([(s.layout[k] as { title?: string }).title, (s.layout[k] as { showticklabels?: boolean }).showticklabels], [undefined, false], k);
  // Six blocks: two rows of at most four, the first of each row with the y axis.
  const six = depthStrip({ grid: [2, 2], blocks: Array.from({ length: 6 }, () => block({ reflectionActivity: [0, 1, 2, 3] })) } as unknown as LightMapsResult, 'reflectionActivity');
  assert.deepEqual([(six.layout.grid as { rows: number }).rows, (six.layout.grid as { columns: number }).columns], [2, 4]);
  assert.equal((six.layout.yaxis5 as { title: string }).title, 'y index');
});

test('1D kernel: a curve with the query point on it and the local 3-point neighbourhood labelled with beta', () => {
  const f = kernelFigure(block({ kernel: { row: [0.1, 0.2, 0.3, 0.4], local: { indices: [2, 3], beta: 0.25 } } }), [4], [3]);
  assert.deepEqual(f.data.map((t) => t.name), ['kernel', 'local (β = 0.250)', 'query point']);
  assert.deepEqual([f.data[2]!.x, f.data[2]!.y], [[3], [0.4]]);
  assert.deepEqual([f.data[1]!.x, f.data[1]!.y], [[2, 3], [0.3, 0.4]]);
});

test('a block map\'s figure title numbers blocks from 1, as the picker does (the closing walk saw "block 0" under "block 1")', () => {
  assert.equal(blockMapTitle('Reflection activity', 0), 'Reflection activity, block 1');
  assert.equal(blockMapTitle('Dominant branch', 3), 'Dominant branch, block 4');
});

test('the query point is marked on the dominant-branch map (and every map), out of the legend and of hover', () => {
  const b = block({ dominant: [0, 1, 2, 2, 1, 0], reflectionActivity: [0, 1, 2, 3, 4, 5] });
  for (const kind of ['dominant', 'reflectionActivity'] as const) {
    const fig = withQueryMark(singleFigure(mapValues(b, kind)!, [2, 3], kind, 'map'), [1, 2], [2, 3], mapValues(b, kind));
    const mark = fig.data.find((t) => t.name === 'query point')!;
    assert.ok(mark, `${kind}: the query point is marked`);
    assert.deepEqual([mark.x, mark.y, mark.hoverinfo, mark.showlegend], [[1], [2], 'skip', false], kind);
    assert.equal(fig.data[0]!.type, 'heatmap', 'the map stays first, the mark on top');
  }
  // a curve: on the curve at the query index; no query: unchanged
  const curve = withQueryMark(singleFigure([5, 6, 7], [3], 'latentNorm', 'c'), [2], [3], [5, 6, 7]);
  assert.deepEqual([curve.data.at(-1)!.x, curve.data.at(-1)!.y], [[2], [7]]);
  const none = singleFigure([5, 6, 7], [3], 'latentNorm', 'c');
  assert.equal(withQueryMark(none, null, [3], [5, 6, 7]), none);
  // the kernel's mark keeps its legend entry
  const k = kernelFigure(block({ kernel: { row: [0.1, 0.2, 0.3, 0.4, 0.5, 0.6] } }), [2, 3], [1, 2]);
  assert.deepEqual(k.data.filter((t) => t.name === 'query point').map((t) => [t.x, t.y, t.showlegend]), [[[1], [2], undefined]]);
});

test('the depth strip (the dominant branch of every block, the view\'s default) marks the query point on each block\'s panel', () => {
  const r = { grid: [2, 3], query: [1, 2], blocks: [block({ dominant: [0, 1, 2, 2, 1, 0] }), block({ dominant: [2, 2, 2, 0, 0, 0] })] } as unknown as LightMapsResult;
  const s = stripWithQueryMarks(depthStrip(r, 'dominant'), r, 'dominant');
  const marks = s.data.filter((t) => t.name === 'query point');
  assert.deepEqual(marks.map((t) => [t.xaxis, t.yaxis, t.x, t.y, t.hoverinfo]), [['x', 'y', [1], [2], 'skip'], ['x2', 'y2', [1], [2], 'skip']]);
  const none = depthStrip({ ...r, query: null } as unknown as LightMapsResult, 'dominant');
  assert.equal(stripWithQueryMarks(none, { ...r, query: null } as unknown as LightMapsResult, 'dominant'), none);
});
