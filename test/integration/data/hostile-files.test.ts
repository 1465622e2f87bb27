// Files that used to hang the engine or reach outside the chosen file: a FIFO named like a data
// file, HDF5 groups nested far too deep, too many objects, and HDF5 external links.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync, execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openDataFile, DataError } from '../../../main/data/formats/index';
import { h5lib, listDatasets, openH5, H5_MAX_DEPTH } from '../../../main/data/formats/h5';
import { inspectWithDeadline } from '../../../main/data/formats/index';
import { ROOT } from '../../helpers/data-fixtures';

const dir = mkdtempSync(join(tmpdir(), 'lino-hostile-'));
test.after(() => rmSync(dir, { recursive: true, force: true }));

interface RawModule { create_group(id: bigint, path: string, track: boolean): number }

/** Groups `g/g/.../g` `depth` deep with `leaves` small datasets at the bottom (groups made by the raw call: h5wasm's create_group re-reads the whole path each time). */
async function deepFile(name: string, depth: number, leaves = 1): Promise<string> {
  const h5 = await h5lib();
  const M = (await h5.ready) as unknown as RawModule;
  const path = join(dir, name);
  const f = openH5(h5, path, 'w');
  let p = '';
  for (let i = 0; i < depth; i++) M.create_group(f.file_id, (p += '/g'), false);
  const bottom = new h5.Group(f.file_id, p || '/');
  for (let i = 0; i < leaves; i++) bottom.create_dataset({ name: `d${i}`, data: new Float32Array([i, i + 1]) });
  f.close();
  return path;
}

test('a FIFO named x.npy (or .h5, .mat) is refused at once by every reader entry point, naming the file', () => {
  const fifo = join(dir, 'f.npy');
  execFileSync('mkfifo', [fifo]);
  // In a child process with a timeout: a regression blocks in open() and must fail, not hang the runner.
  const code = `
    const { openDataFile, inspectDataFile, sniffFile } = await import('./main/data/formats/index.ts');
    const { NpyFile } = await import('./main/data/formats/npy.ts');
    const { Hdf5File } = await import('./main/data/formats/hdf5.ts');
    const { Mat5File } = await import('./main/data/formats/mat5.ts');
    const { NpzFile } = await import('./main/data/formats/npz.ts');
    const out = [];
    for (const [name, fn] of [['inspect', () => inspectDataFile(process.argv[1])], ['open', () => openDataFile(process.argv[1])], ['sniff', async () => sniffFile(process.argv[1])],
      ['npy', async () => new NpyFile(process.argv[1])], ['hdf5', () => Hdf5File.open(process.argv[1])], ['mat5', async () => new Mat5File(process.argv[1])], ['npz', async () => new NpzFile(process.argv[1])]]) {
      try { await fn(); out.push(name + ': opened'); } catch (e) { out.push(name + ': ' + e.message); }
    }
    console.log(JSON.stringify(out));`;
  const r = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', code, fifo], { cwd: ROOT, encoding: 'utf8', timeout: 60_000 });
  assert.equal(r.signal, null, `the readers blocked on the FIFO (killed after 60 s): ${r.stderr}`);
  const lines: string[] = JSON.parse(r.stdout.trim().split('\n').pop()!);
  assert.equal(lines.length, 7);
  for (const l of lines) assert.match(l, new RegExp(`^\\w+: ${fifo.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}: is not a regular file \\(it is a FIFO \\(named pipe\\)\\)`), l);
});

test('HDF5 groups nested 1,000 deep are refused in seconds with the depth in the message (was over 240 s)', async () => {
  const path = await deepFile('deep1000.h5', 1000);
  const t0 = performance.now();
  await assert.rejects(openDataFile(path), (e: unknown) => e instanceof DataError && e.file === path && /groups nested 1001 deep/.test(e.message) && new RegExp(`at most ${H5_MAX_DEPTH} levels`).test(e.message));
  const ms = performance.now() - t0;
  assert.ok(ms < 5000, `refused after ${ms.toFixed(0)} ms`);
});

test(`HDF5 groups nested ${H5_MAX_DEPTH - 1} deep still list, in time linear in the objects`, async () => {
  const path = await deepFile('deep63.h5', H5_MAX_DEPTH - 1, 3);
  const t0 = performance.now();
  const f = await openDataFile(path);
  const ms = performance.now() - t0;
  const prefix = Array(H5_MAX_DEPTH - 1).fill('g').join('/');
  assert.deepEqual(f.variables().map((v) => v.name), [`${prefix}/d0`, `${prefix}/d1`, `${prefix}/d2`]);
  assert.deepEqual(Array.from((await f.read(`${prefix}/d2`)).data as Float32Array), [2, 3]);
  f.close();
  assert.ok(ms < 5000, `listed in ${ms.toFixed(0)} ms`);
});

test('an HDF5 walk past its object count or time budget stops with a message naming the file', async () => {
  const path = await deepFile('wide.h5', 2, 12);
  const h5 = await h5lib();
  const f = openH5(h5, path);
  try {
    assert.throws(() => listDatasets(h5, f, false, path, { maxObjects: 10 }), (e: unknown) => e instanceof DataError && e.file === path && /14 objects, more than the 10/.test(e.message));
    assert.throws(() => listDatasets(h5, f, false, path, { budgetMs: -1 }), (e: unknown) => e instanceof DataError && e.file === path && /listing took longer than/.test(e.message));
    assert.equal(listDatasets(h5, f, false, path).length, 12);
  } finally {
    f.close();
  }
});

test('HDF5 external links are listed as such and never followed: the linked file is not read', async () => {
  const secret = join(dir, 'secret.h5');
  const h5 = await h5lib();
  const s = openH5(h5, secret, 'w');
  s.create_dataset({ name: 'secret', data: new Float64Array([42, 43]) });
  s.close();
  const linker = join(dir, 'linker.h5');
  const a = openH5(h5, linker, 'w');
  a.create_dataset({ name: 'ok', data: new Float64Array([1]) });
  a.create_external_link(secret, '/secret', 'leak');
  a.close();
  const f = await openDataFile(linker);
  const leak = f.variables().find((v) => v.name === 'leak');
  assert.match(leak?.unsupported ?? '', /external link to '.*secret\.h5', not followed/);
  await assert.rejects(f.read('leak'), (e: unknown) => e instanceof DataError && /not followed/.test(e.message));
  assert.deepEqual(Array.from((await f.read('ok')).data as Float64Array), [1]);
  f.close();
});

test('a listing past its deadline is an error naming the file, and the calling thread stays free meanwhile', async () => {
  const path = await deepFile('slow.h5', 40, 20);
  let ticks = 0;
  const timer = setInterval(() => ticks++, 20);
  try {
    await assert.rejects(inspectWithDeadline(path, 50), (e: unknown) => e instanceof DataError && e.file === path && /took longer than 0.05 s/.test(e.message));
  } finally {
    clearInterval(timer);
  }
  assert.ok(ticks >= 1, 'the event loop ran while the worker listed');
  const ok = await inspectWithDeadline(path, 60_000);
  assert.equal(ok.variables.length, 20);
});
