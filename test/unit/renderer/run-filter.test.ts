import { test } from 'node:test';
import assert from 'node:assert/strict';
import { allTags, parseRunQuery, runMatches, splitTags } from '../../../renderer/src/store/run-filter';
import type { RunSummary } from '../../../main/api/contract';

const run = (name: string, extra: Partial<RunSummary> = {}): RunSummary => ({ id: name, name, state: 'done', createdAt: '', epochsDone: 1, epochs: 1, bestValRelL2: null, bestEpoch: null, backend: null, group: null, seed: null, ...extra });

test('runs search: words anywhere (case-insensitive), tag:x exactly, all must match', () => {
  const a = run('Darcy wide', { tags: ['baseline', 'darcy'], notes: 'LR too HIGH' });
  const b = run('Burgers', { tags: ['darcy-like'] });
  const q = (s: string) => parseRunQuery(s);
  assert.deepEqual(q('  tag:baseline lr '), { words: ['lr'], tags: ['baseline'] });
  assert.equal(runMatches(a, q('lr high')), true);
  assert.equal(runMatches(a, q('lr burgers')), false);
  assert.equal(runMatches(b, q('tag:darcy')), false, 'tags match whole');
  assert.equal(runMatches(a, q('tag:darcy')), true);
  assert.equal(runMatches(b, q('width=8'), 'width=8, depth=2'), true, 'configuration differences are searched');
  assert.equal(runMatches(b, q('')), true);
  assert.deepEqual(allTags([a, b]), ['baseline', 'darcy', 'darcy-like']);
  assert.deepEqual(splitTags(' a, b  c,,'), ['a', 'b', 'c']);
});
