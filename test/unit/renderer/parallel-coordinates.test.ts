import { test } from 'node:test';
import assert from 'node:assert/strict';
import { colorAt, fitLabel, niceTicks, parallelLayout, parallelSvg, tickText, type ParallelAxis } from '../../../renderer/src/plots/parallel-coordinates';
import { COLOR_SCALES } from '../../../renderer/src/plots/colorscales';

const AXES: ParallelAxis[] = [
  { key: 'model', label: 'model', kind: 'text' },
  { key: 'width', label: 'width M', kind: 'number' },
  { key: 'lr', label: 'lr', kind: 'number' },
  { key: 'modes', label: 'modes (FNO)', kind: 'number' },
  { key: 'best', label: 'best val relL2', kind: 'number' },
];
const ROWS = [
  { id: 'a', name: 'run a', model: 'LiNO', width: 8, lr: 1e-4, modes: null, best: 0.5 },
  { id: 'b', name: 'run <b>', model: 'FNO', width: 16, lr: 1e-2, modes: 4, best: 0.05 },
  { id: 'c', name: 'run c', model: 'LiNO', width: 12, lr: 1e-3, modes: null, best: null },
];
const O = { width: 600, height: 300, theme: 'light' as const, colorBy: 'best', lowIsBest: true };

test('parallel coordinates: axes every coloured row has, tight linear axes, log where values span decades, categories sorted', () => {
  const L = parallelLayout(AXES, ROWS, O);
  assert.deepEqual(L.axes.map((a) => a.key), ['model', 'width', 'lr', 'best'], 'modes is not every run\'s; c has no metric and is left out');
  assert.deepEqual(L.lines.map((l) => l.id), ['a', 'b'], 'the best (lowest) drawn last, on top');
  const [model, width, lr, best] = L.axes;
  assert.deepEqual(model!.ticks.map((t) => t.text), ['FNO', 'LiNO']);
  assert.equal(width!.scale, 'linear');
  assert.deepEqual(width!.ticks.map((t) => t.text), ['8', '10', '12', '14', '16'], 'ticks inside the data range only');
  assert.equal(lr!.scale, 'log');
  assert.deepEqual(lr!.ticks.map((t) => t.text), ['1e-4', '0.001', '0.01']);
  assert.equal(best!.scale, 'linear', '0.05..0.5 is one decade');
  // Line ends: a at the bottom of width (8 is the minimum), b at the top.
  const a = L.lines.find((l) => l.id === 'a')!;
  const b = L.lines.find((l) => l.id === 'b')!;
  assert.equal(a.points[1]![1], 300 - 28);
  assert.equal(b.points[1]![1], 56);
  assert.equal(b.color, colorAt(COLOR_SCALES.viridis, 1), 'the lowest error gets the bright end');
  assert.equal(a.color, colorAt(COLOR_SCALES.viridis, 0));
});

test('parallel coordinates SVG: a standalone document with one path per run, names escaped, theme colours', () => {
  const svg = parallelSvg(AXES, ROWS, { ...O, title: 'Config & error' });
  assert.match(svg, /^<svg xmlns="http:\/\/www.w3.org\/2000\/svg" width="600" height="300"/);
  assert.equal((svg.match(/class="pc-line"/g) ?? []).length, 2);
  assert.equal((svg.match(/class="pc-axis"/g) ?? []).length, 4);
  assert.ok(svg.includes('run &lt;b&gt;') && !svg.includes('run <b>'));
  assert.ok(svg.includes('Config &amp; error'));
  assert.ok(svg.includes('fill="#ffffff"'));
  assert.ok(parallelSvg(AXES, ROWS, { ...O, theme: 'dark' }).includes('fill="#0d1117"'));
  const empty = parallelSvg(AXES, [], O);
  assert.match(empty, /data-lines="0"/);
});

test('nice ticks and tick text', () => {
  assert.deepEqual(niceTicks(0, 879, 4), [0, 200, 400, 600, 800]);
  assert.deepEqual(niceTicks(0.1, 0.95, 4), [0.2, 0.4, 0.6, 0.8]);
  assert.deepEqual([tickText(0.00012), tickText(123456), tickText(0.25), tickText(1e-4)], ['1.2e-4', '1.2e5', '0.25', '1e-4']);
});

test('error bars follow the theme: the text colour unless a trace sets its own (dark theme: visible)', async () => {
  const { themedTraces, PLOT_COLORS } = await import('../../../renderer/src/plots/theme');
  const [a, b] = themedTraces('dark', [{ type: 'bar', error_y: { type: 'data', array: [1] } }, { type: 'bar', error_y: { array: [1], color: 'red' } }]);
  assert.equal(a!.error_y.color, PLOT_COLORS.dark.fg);
  assert.equal(b!.error_y.color, 'red');
});

test('long category labels fit between the axes with their full text as a tooltip; the colour bar title clears the last axis label (the closing walk\'s Runs view)', () => {
  assert.equal(fitLabel('Darcy · s = 29 (2D) · 20 samples (14/4/2)', 12), 'Darcy · s =…');
  assert.equal(fitLabel('LiNO', 12), 'LiNO');
  const axes: ParallelAxis[] = [{ key: 'model', label: 'model', kind: 'text' }, { key: 'data', label: 'data', kind: 'text' }, { key: 'seed', label: 'seed', kind: 'number' }, { key: 'best', label: 'best val relL2', kind: 'number' }];
  const rows = [
    { id: 'a', model: 'LiNO', data: 'Darcy · s = 29 (2D) · 20 samples (14/4/2)', seed: 1, best: 0.5 },
    { id: 'b', model: 'FNO', data: 'Navier–Stokes · s = 16 (2D) · 8 samples (5/2/1)', seed: 2, best: 0.3 },
  ];
  const o = { ...O, width: 500 };
  const L = parallelLayout(axes, rows, o);
  const gap = L.axes[1]!.x - L.axes[0]!.x;
  for (const t of L.axes[1]!.ticks) {
    assert.ok(t.text.length * 6 <= gap - 12 + 6, `${t.text} fits in ${gap} px`);
    assert.ok(t.text.endsWith('…') && t.full!.startsWith(t.text.slice(0, -1)), t.text);
  }
  const svg = parallelSvg(axes, rows, o);
  assert.ok(svg.includes('<title>Navier–Stokes · s = 16 (2D) · 8 samples (5/2/1)</title>'), 'the whole name as a tooltip');
  const bar = /<text class="pc-cbar-title" x="([\d.]+)" y="([\d.]+)" text-anchor="end"/.exec(svg);
  assert.ok(bar && Number(bar[1]) === 496 && Number(bar[2]) < 56 - 24, 'right-aligned, above both rows of axis labels');
});
