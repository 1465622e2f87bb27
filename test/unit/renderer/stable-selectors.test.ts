// A zustand selector that answers a fresh [] or {} on every call (`useApp((s) => s.x ?? [])`) makes
// React re-render until it gives up (error 185, "Maximum update depth exceeded"): the Model view
// did so while the workspace was loading. Selectors fall back to a module constant instead.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';

const ROOT = join(import.meta.dirname, '../../../renderer/src');

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((n) => {
    const p = join(dir, n);
    return statSync(p).isDirectory() ? files(p) : /\.tsx?$/.test(n) ? [p] : [];
  });
}

/** Calls of a use…((s) => …) hook whose selector ends in `?? []` or `?? {}` (a new object per call). */
const FRESH_FALLBACK = /\buse[A-Z]\w*\(\s*\(?\s*\w+\s*\)?\s*=>[^;]*?\?\?\s*(\[\s*\]|\{\s*\})\s*\)/;

test('no zustand selector answers a fresh [] or {} (it re-renders forever)', () => {
  const found = files(ROOT).flatMap((f) => [...readFileSync(f, 'utf8').matchAll(new RegExp(FRESH_FALLBACK, 'g'))].map((m) => `${f.slice(ROOT.length + 1)}: ${m[0]}`));
  assert.deepEqual(found, []);
});

test('the guard catches the shape that looped', () => {
  assert.match('const d = useApp((s) => s.workspace?.datasets ?? []).filter(Boolean);', FRESH_FALLBACK);
  assert.match('useRuns((s) => s.byId[id] ?? {})', FRESH_FALLBACK);
  assert.doesNotMatch('useApp((s) => s.workspace?.datasets ?? NO_DATASETS)', FRESH_FALLBACK);
});
