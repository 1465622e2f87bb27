// The Playground's pure pieces: its Prediction, Truth and |error| panels carry visible
// titles and the grid's shape (tight axes), the vorticity panels' colour bars say w; "Add to
// dataset" lists only what playground.appendable allowed for this run and grid; counts read "1 sample".
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { playgroundPanels } from '../../../renderer/src/views/playground/playground-figures';
import { stepPanels, vorticityFigure } from '../../../renderer/src/views/playground/flow-figures';
import { appendNote, appendableDatasets, appendedText } from '../../../renderer/src/stores/playground-keep';

const grid = (nx: number, ny: number, f: (i: number) => number) => Array.from({ length: nx * ny }, (_, i) => f(i));

test('Prediction, Truth and |error| panels: titles drawn in the figure, the grid\'s aspect, colour bars named', () => {
  const p = playgroundPanels([29, 40], grid(29, 40, (i) => i), grid(29, 40, (i) => i + 1));
  assert.deepEqual(p.map((x) => (x.layout.title as { text: string }).text), ['Prediction', 'Truth (solver)', '|Error|']);
  assert.deepEqual(p.map((x) => x.title), ['Prediction', 'Truth (solver)', '|Error|']);
  for (const x of p) {
    assert.equal(x.aspect, 40 / 29, 'the plot takes the grid\'s shape, so equal-aspect axes are not padded');
    assert.ok((x.layout.margin as { t: number }).t >= 25, 'room for the title');
  }
  assert.deepEqual(p.map((x) => (x.data[0]!.colorbar as { title: { text: string } }).title.text), ['u', 'u', '|error|']);
  const line = playgroundPanels([64], grid(64, 1, Math.sin), grid(64, 1, Math.cos))[0]!;
  assert.deepEqual((line.layout.xaxis as { range: number[] }).range, [0, 63], 'the 1D axis ends at the grid');
  assert.equal((line.layout.title as { text: string }).text, 'Prediction, truth and |error|');
});

test('Navier–Stokes panels: vorticity colour bars read w, titled, square', () => {
  const n = 16;
  const w = grid(n, n, (i) => Math.sin(i));
  const panels = [vorticityFigure(w, n, [], 0), ...stepPanels(n, [w], [w.map((v) => v + 0.1)], 0)];
  assert.deepEqual(panels.map((p) => (p.data[0]!.colorbar as { title: { text: string } }).title.text), ['w', 'w', 'w', '|error|']);
  for (const p of panels) {
    assert.equal(p.aspect, 1);
    assert.equal((p.layout.title as { text: string }).text, p.title);
  }
});

test('Add to dataset: only the datasets playground.appendable allowed for this run and grid; the note says why others are left out', () => {
  const ws = [{ id: 'darcy-abc', name: 'Darcy · s = 29 · 6 samples' }, { id: 'painted', name: 'painted — Darcy · s = 29 · 1 sample' }, { id: 'darcy-41', name: 'Darcy · s = 41' }];
  const appendable = { runId: 'r1', grid: '29,29', datasets: [{ id: 'darcy-abc', refusal: "dataset 'darcy-abc' is the data of run r1" }, { id: 'painted', refusal: null }, { id: 'darcy-41', refusal: 'another grid' }] };
  assert.deepEqual(appendableDatasets(appendable, 'r1', '29,29', ws).map((d) => d.id), ['painted']);
  assert.deepEqual(appendableDatasets(appendable, 'r2', '29,29', ws), [], 'an answer for another run is not used');
  assert.deepEqual(appendableDatasets(appendable, 'r1', '40,40', ws), [], 'nor for another grid');
  assert.deepEqual(appendableDatasets(null, 'r1', '29,29', ws), []);
  assert.match(appendNote(1, 2), /^2 other datasets left out: .*data of a run/);
  assert.match(appendNote(0, 1), /^No dataset can take this sample \(1 dataset left out: .*\): save it as a new dataset/);
  assert.equal(appendNote(1, 0), '');
});

test('an append reports the dataset by name and its count in words', () => {
  assert.equal(appendedText('painted — Darcy · s = 29', 'val', 2), 'Added to painted — Darcy · s = 29 (val split: now 2 samples)');
  assert.equal(appendedText('x', 'train', 1), 'Added to x (train split: now 1 sample)');
});
