// The Ablation chart and table caption: bars coloured per variant with legend swatches to match,
// the paper's s = 85 numbers in a panel apart from the measured ones, a caption saying what ran.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ablationBars } from '../../../renderer/src/plots/ablation-bars';
import { COMPONENT_COLORS, NEUTRAL_COLOR } from '../../../renderer/src/plots/component-colors';
import { ablationCaption } from '../../../renderer/src/logic/ablation-results';

const rows = [
  { label: 'full', off: null, mean: 0.012, std: 0.001, reported: 0.0062 },
  { label: 'w/o reflection', off: 'reflection', mean: 0.02, std: 0.002, reported: 0.0071 },
  { label: 'w/o scattering', off: 'scattering', mean: 0.015, std: 0.0005, reported: 0.0068 },
];

test('one bar trace per variant, in its component colour, in the legend (no grey swatch for coloured bars)', () => {
  const { data } = ablationBars({ rows, measuredTitle: 'measured here: Darcy · s = 29', paperSetting: null, scale: 'linear' });
  assert.equal(data.length, 3, 'no paper: no reported traces');
  assert.deepEqual(data.map((t) => (t.marker as { color: string }).color), [NEUTRAL_COLOR, COMPONENT_COLORS.reflection, COMPONENT_COLORS.scattering]);
  assert.deepEqual(data.map((t) => t.name), ['full', 'w/o reflection', 'w/o scattering']);
  assert.ok(data.every((t) => t.showlegend !== false && t.type === 'bar'));
  assert.deepEqual(data.map((t) => (t.error_y as { array: number[] }).array[0]), [0.001, 0.002, 0.0005]);
});

test('the paper\'s numbers sit on their own axes (x2/y2), labelled with their setting, never beside the measured bars', () => {
  const { data, layout } = ablationBars({ rows, measuredTitle: 'measured here: Darcy · s = 29', paperSetting: 'Darcy s = 85', scale: 'log' });
  const rep = data.filter((t) => t.xaxis === 'x2');
  assert.equal(rep.length, 3);
  assert.ok(rep.every((t) => t.yaxis === 'y2' && t.showlegend === false));
  assert.deepEqual(rep.map((t) => (t.marker as { color: string }).color), data.slice(0, 3).map((t) => (t.marker as { color: string }).color), 'same colour as the measured bar');
  assert.ok(data.slice(0, 3).every((t) => t.xaxis === undefined), 'measured on the first axes');
  const x = layout.xaxis as { domain: number[]; title: string };
  const x2 = layout.xaxis2 as { domain: number[]; title: string };
  assert.ok(x.domain[1] < x2.domain[0], 'panels side by side, apart');
  assert.equal(x2.title, 'reported: paper, Darcy s = 85');
  assert.match(x.title, /s = 29/);
  assert.equal((layout.yaxis as { type: string }).type, 'log');
  assert.equal((layout.yaxis2 as { type: string }).type, 'log');
  for (const t of data) assert.doesNotMatch(String(t.name), /\(.*\(/, 'no doubled parentheses');
});

test('the LaTeX caption names the run, its data, the metric and the seed count', () => {
  assert.equal(ablationCaption({ runName: 'darcy-lino', dataName: 'Darcy · s = 29 · 200/50/50', seeds: 3, paperSetting: 'Darcy s = 85' }), "Ablation of darcy-lino on Darcy · s = 29 · 200/50/50: best validation relL2 (normalized and decoded), mean ± std over 3 seeds; the reported rows are the paper's Table 3 (Darcy s = 85, normalized)");
  assert.equal(ablationCaption({ runName: 'r', seeds: 1 }), 'Ablation of r: best validation relL2 (normalized and decoded), mean ± std over 1 seed');
});

test('the measured bars name the workspace\'s headline convention; the paper\'s panel stays normalized', () => {
  const rows = [{ label: 'LiNO (full)', off: null, mean: 0.02, std: 0.001, reported: 0.0059 }];
  const d = ablationBars({ rows, measuredTitle: 'measured', paperSetting: 'Darcy s = 85', scale: 'linear', convention: 'decoded' }).layout;
  assert.equal((d.yaxis as { title: string }).title, 'Best val relL2 (decoded)');
  assert.equal((d.yaxis2 as { title: string }).title, 'relL2 (normalized)');
  assert.equal((ablationBars({ rows, measuredTitle: 'measured', paperSetting: null, scale: 'linear' }).layout.yaxis as { title: string }).title, 'Best val relL2 (normalized)');
});
