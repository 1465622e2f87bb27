// test/unit mirrors main/: the tests of main/<folder> live in test/unit/<folder> (a nested folder
// mirrors main/'s nested folder), so a module's tests are found where the module is. The few
// folders that test what is not under main/ are named below with what they test. Tests import
// nothing from bench/: what both need lives in main/ or test/helpers.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { ROOT } from '../../helpers/host';

/** test/unit folders that mirror no folder of main/, each with the folder it tests. */
const NOT_UNDER_MAIN: Record<string, string> = {
  architecture: '.', // the repository's structure: layers, cycles, this rule
  electron: 'electron', // the desktop host
  renderer: 'renderer', // the React views and their stores
};

const UNIT = join(ROOT, 'test', 'unit');
const folders = (dir: string): string[] =>
  readdirSync(dir, { withFileTypes: true }).filter((e) => e.isDirectory()).flatMap((e) => [join(dir, e.name), ...folders(join(dir, e.name))]);

test('every folder of test/unit names a folder of main/ (or one of the few named exceptions)', () => {
  const stray: string[] = [];
  for (const dir of folders(UNIT)) {
    const rel = relative(UNIT, dir);
    const top = rel.split('/')[0]!;
    if (Object.hasOwn(NOT_UNDER_MAIN, top)) continue;
    if (!existsSync(join(ROOT, 'main', rel)) || !statSync(join(ROOT, 'main', rel)).isDirectory()) stray.push(`test/unit/${rel}`);
  }
  assert.deepEqual(stray, [], 'test folders with no main/ folder of that name: move their tests to the folder of the module they test');
  for (const [name, tested] of Object.entries(NOT_UNDER_MAIN)) {
    assert.ok(existsSync(join(ROOT, tested)), `NOT_UNDER_MAIN: ${name} tests ${tested}/, which does not exist`);
    assert.ok(!existsSync(join(ROOT, 'main', name)), `NOT_UNDER_MAIN: main/${name}/ exists now, so test/unit/${name} mirrors it: drop the exception`);
  }
});

test('no test imports from bench/ (shared code lives in main/ or test/helpers, and bench imports it from there)', () => {
  const files = (dir: string): string[] =>
    readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? (e.name === 'fixtures' ? [] : files(join(dir, e.name))) : /\.(ts|tsx|mjs)$/.test(e.name) ? [join(dir, e.name)] : []));
  const offenders = files(join(ROOT, 'test')).filter((f) => /(from|import\()\s*['"](\.\.\/)+bench\//.test(readFileSync(f, 'utf8')));
  assert.deepEqual(offenders.map((f) => relative(ROOT, f)), []);
});
