// Hardening II repro 5: a command that writes a folder never overwrites a user's files: a new or
// empty folder, or --force. `lino export-run` into a folder holding README.md used to replace it.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { RunStore } from '../../../main/runs/run-store';
import { main as lino } from '../../../main/cli/lino';
import { prepareOutputFolder } from '../../../main/util/output-folder';
import { tempDir } from '../../helpers/env';

const ws = tempDir('lino-export-folders-');
after(() => ws.cleanup());

/** Runs the CLI in-process; answers the exit code and what it wrote to stderr. */
async function run(args: string[]): Promise<{ code: number; err: string }> {
  const errs: string[] = [];
  const [log, err, write] = [console.log, console.error, process.stderr.write];
  console.log = () => {};
  console.error = (...a: unknown[]) => { errs.push(a.join(' ')); };
  process.stderr.write = ((chunk: string | Uint8Array) => { errs.push(String(chunk)); return true; }) as typeof process.stderr.write;
  try {
    return { code: await lino(args), err: errs.join('\n') };
  } finally {
    [console.log, console.error, process.stderr.write] = [log, err, write];
  }
}

test('repro 5: lino export-run refuses a folder holding a user\'s README.md, keeps it, and writes with --force', { timeout: 120_000 }, async () => {
  new RunStore(join(ws.path, 'runs')).create({ name: 'x', model: { width: 4, depth: 1 }, data: { kind: 'synthetic', grid: [8], train: 4, val: 2, seed: 1 }, epochs: 1, batchSize: 2 }, 'r1');
  const d = join(ws.path, 'd');
  mkdirSync(d);
  writeFileSync(join(d, 'README.md'), 'precious\n');
  const refused = await run(['export-run', 'r1', '--out', d, '--workspace', ws.path]);
  assert.equal(refused.code, 1);
  assert.match(refused.err, /d: --out names a folder that is not empty \(it holds README\.md\); choose a new or empty folder, or pass --force/);
  assert.equal(readFileSync(join(d, 'README.md'), 'utf8'), 'precious\n');
  assert.equal(existsSync(join(d, 'run.sh')), false, 'nothing written');
  // a new folder is made; --force writes into the non-empty one
  assert.equal((await run(['export-run', 'r1', '--out', join(ws.path, 'new', 'sub'), '--workspace', ws.path])).code, 0);
  assert.ok(existsSync(join(ws.path, 'new', 'sub', 'run.sh')));
  assert.equal((await run(['export-run', 'r1', '--out', d, '--workspace', ws.path, '--force'])).code, 0);
  assert.ok(existsSync(join(d, 'run.sh')));
});

test('every folder-writing command refuses a non-empty --out before computing anything', async () => {
  const d = join(ws.path, 'busy');
  mkdirSync(d);
  writeFileSync(join(d, 'mine.txt'), 'keep');
  const cases = [
    ['data', 'generate', 'darcy', '--preset', 'tiny', '--out', d],
    ['data', 'export', 'no-such', '--format', 'npy', '--out', d, '--workspace', ws.path],
    ['lightmaps', '--weights', join(ws.path, 'w.safetensors'), '--input', join(ws.path, 'x.npy'), '--out', d],
    ['reproduce', 'darcy-scattering', '--workspace', ws.path, '--out', d],
  ];
  for (const c of cases) {
    const r = await run(c);
    assert.equal(r.code, 1, c.join(' '));
    assert.match(r.err, /busy: --out names a folder that is not empty \(it holds mine\.txt\)/, c.join(' '));
  }
  assert.equal(readFileSync(join(d, 'mine.txt'), 'utf8'), 'keep');
  assert.throws(() => prepareOutputFolder(join(d, 'mine.txt')), /mine\.txt: --out names an existing file, expected a new or empty folder/);
  assert.equal(prepareOutputFolder(d, { force: true }), d);
});
