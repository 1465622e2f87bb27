// The Runs view at scale, its pure pieces: the filter's picks for the curves, a seed
// group's statistics over the runs shown ("1 seed": the mean alone, no ± 0), readable group names
// (no internal ids or time stamps), and the run pickers' search (name, tag, data, kind; most recent first).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { RunSummary, WorkspaceSummary } from '../../../main/api/contract';
import { groupStatsOver, meanStdCell, meanStdText, scopeSelection, statesText } from '../../../renderer/src/logic/run-filter';
import { groupLabel, withoutUniqueSuffix } from '../../../renderer/src/logic/ablation-plan';
import { pickerRuns, recentFirst, runDataWords, runOptionText } from '../../../renderer/src/logic/run-picker-search';

const run = (id: string, o: Partial<RunSummary> = {}): RunSummary => ({ id, name: id, state: 'done', createdAt: '2026-11-28T10:00:00.000Z', epochsDone: 2, epochs: 2, bestValRelL2: 0.1, bestEpoch: 2, backend: 'cpu', group: null, seed: 42, ...o });

test('the curves draw only the picks the filter shows: a run shown, a group with a shown run', () => {
  const shown = [run('a'), run('b', { group: 'g1' })];
  assert.deepEqual([...scopeSelection(['run:a', 'run:c', 'group:g1', 'group:g2'], shown)], ['run:a', 'group:g1']);
  assert.equal(scopeSelection([], shown).size, 0);
});

test('a seed group\'s statistics over the runs shown; the engine\'s own when all are shown', () => {
  const g = { runs: [{ id: 'a', valRelL2: 0.1, valRelL2Decoded: 0.2, testRelL2: 0.3 }, { id: 'b', valRelL2: 0.3, valRelL2Decoded: 0.4, testRelL2: null }], valRelL2: { mean: 0.2, std: 0.1414 }, valRelL2Decoded: { mean: 0.3, std: 0.1414 }, testRelL2: null };
  const all = groupStatsOver(g, new Set(['a', 'b']));
  assert.equal(all.n, 2);
  assert.equal(all.valRelL2, g.valRelL2, 'all shown: the engine\'s statistics');
  const one = groupStatsOver(g, new Set(['a']));
  assert.equal(one.n, 1);
  assert.deepEqual(one.valRelL2, { mean: 0.1, std: 0 });
  assert.deepEqual(one.testRelL2, { mean: 0.3, std: 0 });
  assert.equal(meanStdText(one.valRelL2, 1), '0.1000', 'one seed: the mean alone, no ± 0.0');
  assert.equal(meanStdText(all.valRelL2, 2), '0.2000 ± 0.14');
  assert.equal(meanStdText(null, 2), '—');
  assert.equal(meanStdCell(one.valRelL2, 1), 0.1);
  assert.deepEqual(meanStdCell(all.valRelL2, 2), { mean: 0.2, std: 0.1414 });
  assert.equal(statesText([{ state: 'done' }, { state: 'running' }, { state: 'done' }]), '2 done, 1 running');
});

test('groups read by name: a seed group by its runs\' name, an ablation by its base and variant, a sweep by its name and configuration; never an id or time stamp', () => {
  const runs = [
    { id: 'r1', name: 'w8 (seed 42)', group: 'w8-mx0d1tgu' }, { id: 'r2', name: 'w8 (seed 43)', group: 'w8-mx0d1tgu' },
    { id: '20261128-115149-97ac46', name: 'darcy-a', group: null },
    { id: 'r3', name: 'darcy-a/no-scattering (seed 42)', group: '20261128-115149-97ac46/no-scattering' },
    { id: 'r4', name: 'w8/full (seed 42)', group: 'w8-mx0d1tgu/full' },
    { id: 'r5', name: 'grid-demo c1 (seed 42)', group: 'grid-demo-0a1b2c3d-c1' },
  ];
  assert.equal(groupLabel('w8-mx0d1tgu', runs), 'w8');
  assert.equal(groupLabel('20261128-115149-97ac46/no-scattering', runs), 'darcy-a/no-scattering');
  assert.equal(groupLabel('w8-mx0d1tgu/full', runs), 'w8/full');
  assert.equal(groupLabel('grid-demo-0a1b2c3d-c1', runs), 'grid-demo c1');
  // the base run deleted: the variants' own names
  assert.equal(groupLabel('20261128-115149-97ac46/no-scattering', runs.filter((r) => !r.id.startsWith('2026'))), 'darcy-a/no-scattering');
  // no runs left to name it: the key without what made it unique
  assert.equal(groupLabel('grid-demo-0a1b2c3d-c4', []), 'grid-demo c4');
  assert.equal(groupLabel('w8-mx0d1tgu/no-refraction', []), 'w8/no-refraction');
  assert.equal(withoutUniqueSuffix('darcy-ablation'), 'darcy-ablation', 'a word is not a time stamp');
  assert.equal(withoutUniqueSuffix('sweep-lq2'), 'sweep-lq2');
});

test('run pickers: every word matches name, tag, data, kind or state; the most recent first; the selected run stays', () => {
  const ws = { path: '/w', datasets: [{ id: 'darcy-0123456789ab', name: 'coarse — Darcy · s = 29' }], runs: [], exports: [], settings: { relL2Headline: 'normalized' } } as WorkspaceSummary;
  const runs = [
    run('a', { name: 'alpha', createdAt: '2026-11-28T10:00:00.000Z', modelKind: 'lino', dataId: 'darcy-0123456789ab', tags: ['baseline'] }),
    run('b', { name: 'beta', createdAt: '2026-11-28T12:00:00.000Z', modelKind: 'fno', benchmark: 'burgers' }),
    run('c', { name: 'gamma', createdAt: '2026-11-28T11:00:00.000Z', modelKind: 'fno', benchmark: 'darcy' }),
  ];
  const words = (r: RunSummary) => runDataWords(r, ws);
  assert.deepEqual(pickerRuns(runs, '', words).map((r) => r.id), ['b', 'c', 'a'], 'most recent first');
  assert.deepEqual(pickerRuns(runs, 'darcy', words).map((r) => r.id), ['c', 'a'], 'a listed dataset\'s name or the benchmark');
  assert.deepEqual(pickerRuns(runs, 'FNO darcy', words).map((r) => r.id), ['c'], 'every word');
  assert.deepEqual(pickerRuns(runs, 'coarse', words).map((r) => r.id), ['a'], 'the dataset\'s label');
  assert.deepEqual(pickerRuns(runs, 'baseline', words).map((r) => r.id), ['a'], 'a tag');
  assert.deepEqual(pickerRuns(runs, 'nothing', words, 'b').map((r) => r.id), ['b'], 'the selected run is kept');
  assert.equal(runOptionText(runs[1]!, words(runs[1]!)), 'beta — fno · Burgers — done (2/2 epochs)');
  assert.deepEqual(recentFirst([run('x', { name: 'b' }), run('y', { name: 'a' })]).map((r) => r.id), ['y', 'x'], 'ties by name');
});
