import { test } from 'node:test';
import assert from 'node:assert/strict';
import { allTags, bestStats, bucketRuns, parseRunQuery, runMatches, splitTags } from '../../../renderer/src/logic/run-filter';
import type { RunSummary } from '../../../main/api/contract';

const run = (name: string, extra: Partial<RunSummary> = {}): RunSummary => ({ id: name, name, state: 'done', createdAt: '', epochsDone: 1, epochs: 1, bestValRelL2: null, bestEpoch: null, backend: null, group: null, seed: null, ...extra });

test('runs search: words anywhere (case-insensitive), tag:x exactly, all must match', () => {
  const a = run('Darcy wide', { tags: ['baseline', 'darcy'], notes: 'LR too HIGH' });
  const b = run('Burgers', { tags: ['darcy-like'] });
  const q = (s: string) => parseRunQuery(s);
  assert.deepEqual(q('  tag:baseline lr '), { words: ['lr'], tags: ['baseline'], fields: [], datasets: [] });
  assert.equal(runMatches(a, q('lr high')), true);
  assert.equal(runMatches(a, q('lr burgers')), false);
  assert.equal(runMatches(b, q('tag:darcy')), false, 'tags match whole');
  assert.equal(runMatches(a, q('tag:darcy')), true);
  assert.equal(runMatches(b, q('depth=2'), 'model.width=8, model.depth=2'), false, 'a field filter reads the config, not the text');
  assert.equal(runMatches(b, q('model.width'), 'model.width=8, model.depth=2'), true, 'configuration differences are searched');
  assert.equal(runMatches(b, q('')), true);
  assert.deepEqual(allTags([a, b]), ['baseline', 'darcy', 'darcy-like']);
  assert.deepEqual(splitTags(' a, b  c,,'), ['a', 'b', 'c']);
});

test('runs filter by config field and dataset: "key=value" on the flattened config (numbers compared as numbers), "dataset:x" on the data\'s name', () => {
  const a = run('a');
  const flat = { 'model.width': '8', 'model.kind': 'fno', 'optimizer.lr': '0.001' };
  const q = parseRunQuery('width=8 lr=1e-3 model.kind=FNO dataset:darcy');
  assert.deepEqual(q.fields, [{ key: 'width', value: '8' }, { key: 'lr', value: '1e-3' }, { key: 'model.kind', value: 'FNO' }]);
  assert.equal(runMatches(a, q, '', flat, 'Darcy · s = 29 (2D) · 10 samples (8/2/0)'), true);
  assert.equal(runMatches(a, q, '', flat, 'Burgers · s = 128'), false, 'other data');
  assert.equal(runMatches(a, parseRunQuery('width=16'), '', flat), false);
  assert.equal(runMatches(a, parseRunQuery('modes=4'), '', flat), false, 'a field the run does not have');
  assert.equal(runMatches(a, parseRunQuery('s = 29'), '', flat, 'Darcy · s = 29'), true, 'words search the data name too');
});

test('runs grouped by any value: sorted buckets (numbers as numbers), a run under each of its tags, runs without a value last; mean ± std of best errors', () => {
  const r = [run('a', { tags: ['x', 'y'], bestValRelL2: 0.1 }), run('b', { tags: ['y'], bestValRelL2: 0.3 }), run('c', { bestValRelL2: null })];
  assert.deepEqual(bucketRuns(r, (x) => x.tags ?? []).map((b) => [b.value, b.members.map((m) => m.id)]), [['x', ['a']], ['y', ['a', 'b']], ['—', ['c']]]);
  const width: Record<string, string> = { a: '16', b: '8', c: '128' };
  assert.deepEqual(bucketRuns(r, (x) => [width[x.id]!]).map((b) => b.value), ['8', '16', '128']);
  const s = bestStats(r)!;
  assert.deepEqual([s.n, Number(s.mean.toFixed(6)), Number(s.std.toFixed(6))], [2, 0.2, 0.1]);
  assert.equal(bestStats([r[2]!]), null);
});
