import { test } from 'node:test';
import assert from 'node:assert/strict';
import { hparamRows, parallelHparams, sortRows } from '../../../renderer/src/logic/hparams';
import type { RunSummary } from '../../../main/api/contract';

const run = (id: string, best: number | null): RunSummary => ({ id, name: id, state: 'done', createdAt: '', epochsDone: 1, epochs: 1, bestValRelL2: best, bestEpoch: 1, backend: null, group: null, seed: null });
const cfg = (width: number, lr: number, scattering: string) => ({ model: { width, depth: 2, scattering, components: ['reflection', 'scattering'] }, optimizer: { lr, weightDecay: 1e-5 }, batchSize: 2, epochs: 3, seed: 7, data: { kind: 'generate', benchmark: 'darcy', preset: 'tiny' } });

test('hyperparameters: rows from configs, sorting with missing values last, parcoords of finished runs', () => {
  const runs = [run('a', 0.2), run('b', 0.1), run('c', null), run('d', 0.3)];
  const rows = hparamRows(runs, { a: cfg(8, 1e-3, 'efficient'), b: cfg(16, 3e-3, 'full'), c: cfg(4, 1e-2, 'efficient') });
  assert.deepEqual(rows.map((r) => r.id), ['a', 'b', 'c'], 'd has no config loaded yet');
  assert.deepEqual([rows[0]!.width, rows[0]!.lr, rows[0]!.components, rows[0]!.data], [8, 1e-3, 'reflection+scattering', 'Darcy · tiny preset']);
  // A trained run names the dataset it resolved to (and its label), not the hash.
  const trained = { ...cfg(8, 1e-3, 'full'), data: { kind: 'dataset', id: 'darcy-beababc8a08c' }, resolvedData: { id: 'darcy-beababc8a08c', grid: [29, 29], counts: { train: 8, val: 2, test: 0 } } };
  assert.equal(hparamRows([run('t', 0.1)], { t: trained })[0]!.data, 'Darcy · s = 29 (2D) · 10 samples (8/2/0)');
  assert.equal(hparamRows([run('t', 0.1)], { t: trained }, { 'darcy-beababc8a08c': 'mine' })[0]!.data, 'mine — Darcy · s = 29 (2D) · 10 samples (8/2/0)');
  assert.deepEqual(sortRows(rows, 'best', 'asc').map((r) => r.id), ['b', 'a', 'c']);
  assert.deepEqual(sortRows(rows, 'best', 'desc').map((r) => r.id), ['a', 'b', 'c']);
  assert.deepEqual(sortRows(rows, 'scattering', 'asc').map((r) => r.id), ['a', 'c', 'b']);
  const p = parallelHparams(rows)!;
  assert.deepEqual(p.rows.map((r) => r.id), ['a', 'b'], 'only finished runs');
  assert.deepEqual(p.axes.map((a) => a.key), ['model', 'width', 'depth', 'scattering', 'components', 'lr', 'weightDecay', 'batch', 'epochs', 'seed', 'data', 'best']);
  assert.deepEqual(p.axes.at(-1), { key: 'best', label: 'best val relL2 (normalized)', kind: 'number' });
  assert.equal(parallelHparams([rows[2]!]), null, 'no finished run, no plot');
});

test('hyperparameters of mixed kinds: the kind shown, each kind\'s own fields blank for the others, parcoords keeps only what every run has', () => {
  const runs = [run('l', 0.2), run('f', 0.1), run('d', 0.3)];
  const base = cfg(8, 1e-3, 'efficient');
  const rows = hparamRows(runs, {
    l: base,
    f: { ...base, model: { ...base.model, kind: 'fno', modes: 4 } },
    d: { ...base, model: { ...base.model, kind: 'deeponet', basis: 16 } },
  });
  assert.deepEqual(rows.map((r) => [r.model, r.scattering, r.components, r.modes, r.basis]), [
    ['LiNO', 'efficient', 'reflection+scattering', null, null],
    ['FNO', null, null, 4, null],
    ['DeepONet', null, null, null, 16],
  ]);
  const labels = parallelHparams(rows)!.axes.map((d) => d.label);
  assert.ok(labels.includes('model'));
  for (const l of ['scattering', 'components', 'modes (FNO)', 'basis p (DeepONet)']) assert.ok(!labels.includes(l), `${l} is not every run's: no axis`);
});
