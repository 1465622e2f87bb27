// One way to start a worker: main/util/workers.ts over worker-entries.json, the table
// scripts/build.mjs bundles from. No other product module constructs a Worker, every entry's
// source exists, and no per-entry bootstrap file is left.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { WORKERS } from '../../../main/util/workers';

const ROOT = new URL('../../../', import.meta.url).pathname;

function files(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? files(join(dir, e.name)) : [join(dir, e.name)]));
}

test('no `new Worker` outside main/util/workers.ts; no *-bootstrap.mjs left; every worker entry has its source', () => {
  const product = [...files(join(ROOT, 'main')), ...files(join(ROOT, 'electron'))];
  const code = (f: string) => readFileSync(f, 'utf8').replace(/^\s*(\/\/|\*).*$/gm, '');
  const starters = product.filter((f) => /\.(ts|mjs|js)$/.test(f) && /\bnew Worker\s*\(/.test(code(f))).map((f) => relative(ROOT, f));
  assert.deepEqual(starters, ['main/util/workers.ts']);
  assert.deepEqual(product.filter((f) => /bootstrap\.mjs$/.test(f)).map((f) => relative(ROOT, f)), []);
  for (const [name, e] of Object.entries(WORKERS)) assert.ok(existsSync(join(ROOT, e.source)), `${name}: ${e.source}`);
  const bundles = Object.values(WORKERS).map((e) => e.bundle);
  assert.equal(new Set(bundles).size, bundles.length, 'each entry its own bundle file');
  assert.match(readFileSync(join(ROOT, 'scripts/build.mjs'), 'utf8'), /main\/util\/worker-entries\.json/, 'the build bundles from the same table');
});
