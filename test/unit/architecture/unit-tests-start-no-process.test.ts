// test/unit holds the tests that run in their own process: none starts the CLI, an engine, a host, a
// browser, a TypeScript child or Python (each costs seconds of start-up, more on a loaded machine).
// Those tests live in test/integration (test/integration/<folder> where they test main/<folder>), so
// that test/unit stays the quick check. Small system tools (git, mkfifo) are fine.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { ROOT } from '../../helpers/host';

/** What starts such a process, each with what it starts. */
const STARTS: [RegExp, string][] = [
  [/bin\/lino/, 'the lino CLI'],
  [/['"]--import['"],\s*['"]tsx['"]/, 'a TypeScript child through tsx'],
  [/\bfork\(/, 'a forked Node process'],
  [/python3?['"`]|\b(runFixtureTool|havePython)\b/, 'Python'],
  [/helpers\/(engine-service|host-process|browser-suite|chromium|predict-saved|predict-saved-any)['"]|\bstartTestHost\b/, 'an engine, a host or a browser (a test helper that starts one)'],
];

const files = (dir: string): string[] =>
  readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? files(join(dir, e.name)) : /\.(ts|tsx|mjs)$/.test(e.name) ? [join(dir, e.name)] : []));

test('no file of test/unit starts the CLI, an engine, a host, a browser, a tsx child or Python (those are integration tests)', () => {
  const self = relative(ROOT, new URL(import.meta.url).pathname);
  const found: string[] = [];
  for (const f of files(join(ROOT, 'test', 'unit'))) {
    const rel = relative(ROOT, f);
    if (rel === self) continue;
    const text = readFileSync(f, 'utf8');
    for (const [re, what] of STARTS) if (re.test(text)) found.push(`${rel}: ${what}`);
  }
  assert.deepEqual(found, [], 'move these files to test/integration/<the folder they test>');
});
