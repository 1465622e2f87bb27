// The repository stands alone: its tracker is not in it, so a comment, a test title or a document
// says what a rule means instead of "issue N" (a reader cannot look it up). A reference to another
// project's tracker names the project (tfjs issue 3830).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';

const ROOT = new URL('../../../', import.meta.url).pathname;
const FOLDERS = ['main', 'renderer/src', 'electron', 'scripts', 'bench', 'scaleout', 'tools', 'test', 'docs'];

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((n) => {
    const p = join(dir, n);
    if (n === 'node_modules' || n === 'fixtures' || n === '__pycache__') return [];
    return statSync(p).isDirectory() ? files(p) : /\.(ts|tsx|mjs|js|py|sh|md|css|html)$/.test(n) ? [p] : [];
  });
}

test('no comment, test title or document refers to "issue N" of the project\'s own tracker', () => {
  const self = relative(ROOT, new URL(import.meta.url).pathname);
  const found = [...FOLDERS.flatMap((f) => files(join(ROOT, f))), join(ROOT, 'README.md')]
    .filter((f) => relative(ROOT, f) !== self)
    .flatMap((f) => readFileSync(f, 'utf8').split('\n').flatMap((line, i) => (/(?<!(tfjs|wandb|tensorboard|neuraloperator|pdebench|physicsnemo-sym|physics_informed|optuna|pytorch|electron) )\bissue #?\d+/i.test(line) ? [`${relative(ROOT, f)}:${i + 1}`] : [])));
  assert.deepEqual(found, []);
});
