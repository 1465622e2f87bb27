// One primitive reads a user's file (main/util/user-file.ts): regular files only, never blocking,
// within a size limit checked before allocating. This test keeps readFileSync / openSync out of
// every other module: the ones listed below read only files the workbench itself wrote (or opens
// for writing), each with the reason; a new module that needs them reads through user-file instead.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { readUserFile, readUserText, UserFileError } from '../../../main/util/user-file';
import { tempDir } from '../../helpers/env';

const ROOT = new URL('../../../', import.meta.url).pathname;

/** Modules allowed to call readFileSync / openSync, and why their paths are not a user's. */
const ALLOWED: Record<string, string> = {
  'main/util/user-file.ts': 'the primitive itself',
  'main/util/atomic-file.ts': 'opens its own temp files and their folder for writing and fsync',
  'main/services/ui-state.ts': "the workspace's own .lino/ui-state.json",
  'main/workspace/settings.ts': "the app's settings.json in its config folder",
  'main/workspace/workspace.ts': "the workspace's own JSON records",
  'main/cli/commands/version.ts': "the checkout's package.json",
  'main/data/dataset-store.ts': "manifests the dataset store wrote",
  'main/data/formats/mat73.ts': 'the HDF5 body it just wrote, copied behind the MAT header',
  'main/runs/run-store.ts': "a run's config/status/metrics files the run store wrote",
  'main/runs/run-lock.ts': "a run's lock file (created with wx)",
  'main/runs/run-meta.ts': "a run's meta.json the workbench wrote",
  'main/runs/checkpoint.ts': 'checkpoint files the run store wrote, verified against their sha256 in state.json',
  'main/train/torch-run.ts': "opens the run's own torch/python.log for appending Python's output (refused unless a regular file)",
};

function tsFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? tsFiles(join(dir, e.name)) : e.name.endsWith('.ts') ? [join(dir, e.name)] : []));
}

test('readFileSync / openSync appear only in the listed modules (every other read of a user file goes through main/util/user-file.ts)', () => {
  const found = [...tsFiles(join(ROOT, 'main')), ...tsFiles(join(ROOT, 'electron'))]
    .filter((f) => /\b(readFileSync|openSync)\b/.test(readFileSync(f, 'utf8').replace(/^\s*(\/\/|\*).*$/gm, '')))
    .map((f) => relative(ROOT, f))
    .sort();
  const unexpected = found.filter((f) => !Object.hasOwn(ALLOWED, f));
  assert.deepEqual(unexpected, [], `read user files with readUserFile/readUserText from main/util/user-file.ts: ${unexpected.join(', ')}`);
  const stale = Object.keys(ALLOWED).filter((f) => !found.includes(f));
  assert.deepEqual(stale, [], 'the allow-list names only modules that still need it');
});

test('readUserFile refuses a FIFO, a folder, a device and a file over its limit, naming the file and the limit', () => {
  const d = tempDir('lino-user-file-');
  try {
    const fifo = join(d.path, 'f.json');
    execFileSync('mkfifo', [fifo]);
    assert.throws(() => readUserText(fifo, { what: 'a JSON config' }), /f\.json: is not a regular file \(it is a FIFO \(named pipe\)\); it is not read \(expected a JSON config\)/);
    assert.throws(() => readUserFile(d.path), /is not a regular file \(it is a folder\)/);
    assert.throws(() => readUserFile('/dev/zero'), /\/dev\/zero: is not a regular file \(it is a character device\)/);
    const big = join(d.path, 'big.bin');
    writeFileSync(big, new Uint8Array(1000));
    assert.throws(() => readUserFile(big, { maxBytes: 999, what: 'a test file' }), (e: Error) => e instanceof UserFileError && /big\.bin: is 1000 bytes, more than the 999 bytes read for a test file/.test(e.message));
    assert.equal(readUserFile(big).length, 1000);
    assert.throws(() => readUserFile(join(d.path, 'missing')), /missing: cannot open: ENOENT/);
  } finally {
    d.cleanup();
  }
});
