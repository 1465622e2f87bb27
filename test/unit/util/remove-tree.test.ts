// The one delete primitive (main/util/remove-tree.ts): every refusal it makes, what it removes,
// and a guard that keeps recursive rm out of every other module of the product.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { removeOwnTree, removeTemp, RemoveRefusedError } from '../../../main/util/remove-tree';
import { tempDir } from '../../helpers/env';

const ROOT = new URL('../../../', import.meta.url).pathname;
const RUN = { marker: 'config.json', what: 'a run folder' };

function tsFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? tsFiles(join(dir, e.name)) : /\.(ts|tsx|mjs|js)$/.test(e.name) ? [join(dir, e.name)] : []));
}

test('recursive rm / rmSync / rmdir appear only in main/util/remove-tree.ts (every other delete of a tree goes through removeOwnTree)', () => {
  const code = (f: string) => readFileSync(f, 'utf8').replace(/^\s*(\/\/|\*).*$/gm, '');
  const found = [...tsFiles(join(ROOT, 'main')), ...tsFiles(join(ROOT, 'electron'))]
    .filter((f) => /\b(rmSync|rm|rmdirSync|rmdir)\s*\([^)]*recursive\s*:\s*true/s.test(code(f)) || /\brmdirSync\s*\(|\bfs\.rm\s*\(|\bpromises\.rm\s*\(/.test(code(f)))
    .map((f) => relative(ROOT, f));
  assert.deepEqual(found, ['main/util/remove-tree.ts'], 'delete folders with removeOwnTree/removeTemp from main/util/remove-tree.ts');
});

test('refuses an id that is not one folder name, naming the field: "", ".", "..", "../x", "a/b", "a\\\\b", NUL', () => {
  const d = tempDir('lino-rm-');
  try {
    mkdirSync(join(d.path, 'runs'));
    for (const id of ['', '.', '..', '../victim', 'a/b', 'a\\b', 'a\0b']) {
      assert.throws(() => removeOwnTree(join(d.path, 'runs'), id, RUN), (e: Error) => e instanceof RemoveRefusedError && /field 'a run folder' must be one folder name/.test(e.message), JSON.stringify(id));
    }
    assert.ok(existsSync(join(d.path, 'runs')));
  } finally {
    d.cleanup();
  }
});

test('refuses a folder without its marker, a symbolic link (entry or root) and a name not its own; removes its own', () => {
  const d = tempDir('lino-rm-');
  try {
    const runs = join(d.path, 'runs');
    const victim = join(d.path, 'victim');
    mkdirSync(victim);
    writeFileSync(join(victim, 'config.json'), '{}'); // a marker behind a link is still not ours
    mkdirSync(join(runs, 'users-folder'), { recursive: true });
    writeFileSync(join(runs, 'users-folder', 'notes.txt'), 'mine');
    symlinkSync(victim, join(runs, 'link'));
    assert.throws(() => removeOwnTree(runs, 'users-folder', RUN), /refused to delete .*users-folder: it is not a run folder the workbench made \(no config.json\); nothing was removed/);
    assert.throws(() => removeOwnTree(runs, 'link', RUN), /link: it is a symbolic link/);
    const linkedRoot = join(d.path, 'linked-runs');
    symlinkSync(d.path, linkedRoot);
    assert.throws(() => removeOwnTree(linkedRoot, 'victim', RUN), /is a symbolic link/);
    assert.throws(() => removeOwnTree(runs, 'users-folder', { names: /^\.x$/, what: 'a temporary folder' }), /'users-folder' is not a name the workbench gives a temporary folder/);
    assert.throws(() => removeTemp(join(runs, 'users-folder')), /not a name the workbench gives/);
    assert.equal(readFileSync(join(runs, 'users-folder', 'notes.txt'), 'utf8'), 'mine');
    assert.ok(existsSync(join(victim, 'config.json')));

    mkdirSync(join(runs, 'r1'));
    writeFileSync(join(runs, 'r1', 'config.json'), '{}');
    assert.equal(removeOwnTree(runs, 'r1', RUN), true);
    assert.equal(existsSync(join(runs, 'r1')), false);
    assert.equal(removeOwnTree(runs, 'r1', RUN), false, 'a missing entry is not an error');
    mkdirSync(join(runs, `.r2.${process.pid}.partial`));
    assert.equal(removeTemp(join(runs, `.r2.${process.pid}.partial`)), true);
  } finally {
    d.cleanup();
  }
});
