// A connected client cannot reach files outside what the user chose: every path crossing the API is
// a file reference the host resolved (symlinks included) or a path the host chose itself. Each
// refusal goes through the real service and engine, names the field, and leaves nothing outside.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, readdirSync, realpathSync, symlinkSync, unlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ApiError, type JobSummary } from '../../main/api/contract';
import { encodeNpy } from '../../main/data/formats/npy';
import { ndarray } from '../../main/data/ndarray';
import { engineService } from '../helpers/engine-service';
import { tempDir } from '../helpers/env';
import { ROOT } from '../helpers/host';

const home = tempDir('lino-sandbox-home-');
const outside = tempDir('lino-sandbox-outside-');
const elsewhere = tempDir('lino-sandbox-elsewhere-');
const { service, workspace, settled } = engineService({ homeRoot: home.path });
const secret = join(outside.path, 'secret.npy');
writeFileSync(secret, Buffer.concat(encodeNpy(ndarray(new Float32Array([1234.5, 6789]), [2], 'float32'))));

/** Asserts the call is refused naming `field`. */
async function refused(call: Promise<unknown>, field: string, message?: RegExp): Promise<ApiError> {
  let err: unknown;
  await call.then(() => assert.fail(`accepted; expected a refusal naming '${field}'`), (e) => (err = e));
  const e = ApiError.from(err);
  assert.equal(e.details.field, field, `${e.message} (field ${e.details.field})`);
  if (message) assert.match(e.message, message);
  return e;
}
const datasetsIn = (ws: string) => (existsSync(join(ws, 'datasets')) ? readdirSync(join(ws, 'datasets')) : []);
const entry = (name: string, rel = '') => service.listFiles('home', rel).entries.find((e) => e.name.startsWith(name));

test('jobs.start import with a raw path is refused by the schema, and nothing is read or stored', async () => {
  const params = { path: secret, benchmark: 'custom', input: ['secret'], target: 'secret' };
  await refused(service.call('jobs.start', { kind: 'import', params }), 'params.path', /not a parameter of 'import' jobs/);
  await refused(service.call('jobs.start', { kind: 'import', params: { file: 'f_notissuedbythehost', benchmark: 'custom', input: ['a'], target: 'a', workspace: elsewhere.path } }), 'params.workspace');
  assert.deepEqual(datasetsIn(workspace), []);
  assert.deepEqual(readdirSync(elsewhere.path), []);
});

test('jobs.start generate with a workspace of its own is refused; without one it writes into the open workspace', async () => {
  await refused(service.call('jobs.start', { kind: 'generate', params: { benchmark: 'burgers', preset: 'tiny', samples: 4, workspace: elsewhere.path } }), 'params.workspace');
  assert.deepEqual(readdirSync(elsewhere.path), []);
  const job = (await service.call('jobs.start', { kind: 'generate', params: { benchmark: 'burgers', preset: 'tiny', samples: 4 } })) as JobSummary;
  const end = await settled(job.id, 180_000);
  assert.equal(end.state, 'done', end.error);
  assert.equal(datasetsIn(workspace).filter((d) => !d.startsWith('.')).length, 1);
  assert.deepEqual(readdirSync(elsewhere.path), []);
});

test('jobs.start evaluate or train (which name a workspace) is refused: they start through runs.evaluate and train.start', async () => {
  mkdirSync(join(elsewhere.path, 'runs', 'r1'), { recursive: true });
  for (const kind of ['evaluate', 'train']) {
    await refused(service.call('jobs.start', { kind, params: { workspace: elsewhere.path, runId: 'r1' } }), 'kind', /start through/);
  }
  assert.equal(existsSync(join(elsewhere.path, 'exports')), false);
});

test('train.start with data {kind:"file", path} outside home is refused; a run is only made from a file reference', async () => {
  const config = { name: 'escape', epochs: 1, data: { kind: 'file', path: secret, benchmark: 'custom', input: ['secret'], target: 'secret' } };
  await refused(service.call('train.start', { config }), 'config.data.path', /not the data file of a run in this workspace/);
  await refused(service.call('train.start', { config: { ...config, data: { kind: 'file', file: 'f_notissuedbythehost', benchmark: 'custom' } } }), 'config.data.file', /unknown file reference/);
  assert.deepEqual(await service.call('runs.list', {}), []);
});


test('train.start with data.file stores the path the host resolved; that path is then accepted again (a copied configuration)', async () => {
  copyFileSync(join(ROOT, 'test/fixtures/data/darcy_v5.mat'), join(home.path, 'darcy.mat'));
  const base = { epochs: 1, batchSize: 2, model: { width: 4, depth: 1 }, backend: 'cpu' };
  const data = { kind: 'file', benchmark: 'darcy', train: 3, val: 2, resolution: 5 } as const;
  const a = (await service.call('train.start', { config: { ...base, name: 'from ref', data: { ...data, file: entry('darcy.mat')!.ref! } } })) as { runId: string; job: JobSummary };
  await settled(a.job.id, 180_000);
  const stored = ((await service.call('runs.get', { id: a.runId })) as { config: { data: Record<string, unknown> } }).config.data;
  assert.equal(stored.path, realpathSync(join(home.path, 'darcy.mat')));
  assert.equal('file' in stored, false);
  const b = (await service.call('train.start', { config: { ...base, name: 'copy', data: { ...data, path: stored.path as string } } })) as { runId: string; job: JobSummary };
  await settled(b.job.id, 180_000);
  await refused(service.call('train.start', { config: { ...base, data: { ...data, path: stored.path as string, file: entry('darcy.mat')!.ref! } } }), 'config.data.file', /config\.data\.file/);
});

test('a symlink in home leading outside gets no reference, and a reference retargeted outside is refused by workspace.open', async () => {
  const target = join(outside.path, 'etc-like');
  mkdirSync(target);
  writeFileSync(join(target, 'passwd'), 'root:x:0:0\n');
  symlinkSync(target, join(home.path, 'link'));
  const listed = entry('link');
  assert.ok(listed, 'the link is listed');
  assert.equal(listed.ref, undefined, 'no reference for a link leading outside home');
  assert.match(listed.name, /link leading outside home/);
  await refused(service.call('files.list', { root: 'home', rel: 'link' }), 'rel', /outside the home folder/);
  // A reference issued while the link pointed inside home, then the link is swapped.
  mkdirSync(join(home.path, 'inside'));
  unlinkSync(join(home.path, 'link'));
  symlinkSync(join(home.path, 'inside'), join(home.path, 'link'));
  const ref = entry('link')!.ref!;
  assert.ok(ref);
  unlinkSync(join(home.path, 'link'));
  symlinkSync(target, join(home.path, 'link'));
  // The reference was issued for the resolved folder (home/inside), so the swap does not move it.
  const opened = (await service.call('workspace.open', { dir: ref })) as { path: string };
  assert.equal(opened.path, join(home.path, 'inside'));
  assert.deepEqual(readdirSync(target), ['passwd'], 'nothing created in the outside folder');
  // A folder inside home that is itself replaced by a link outside: the reference now resolves outside.
  mkdirSync(join(home.path, 'ws2'));
  const ref2 = entry('ws2')!.ref!;
  execFileSync('rm', ['-r', join(home.path, 'ws2')]);
  symlinkSync(target, join(home.path, 'ws2'));
  await refused(service.call('workspace.open', { dir: ref2 }), 'dir', /outside/);
  assert.deepEqual(readdirSync(target), ['passwd'], 'no datasets/, runs/, exports/ or workspace.json created outside');
  await service.call('workspace.open', { dir: service.listFiles('home', '').entries.find((e) => e.name === 'inside')!.ref! });
});

test('a file name that is not valid UTF-8 is listed with a marker and refused with a message, not a misleading ENOENT', async () => {
  const raw = Buffer.concat([Buffer.from(join(home.path, 'bad-')), Buffer.from([0xff, 0xfe]), Buffer.from('.npy')]);
  writeFileSync(raw, Buffer.concat(encodeNpy(ndarray(new Float32Array([1]), [1], 'float32'))));
  const dirRaw = Buffer.concat([Buffer.from(join(home.path, 'dir-')), Buffer.from([0xc3, 0x28])]);
  mkdirSync(dirRaw);
  const file = entry('bad-');
  assert.ok(file, 'listed');
  assert.match(file.name, /name is not valid UTF-8: rename it to open it/);
  assert.equal(file.ref, undefined);
  const dir = entry('dir-');
  assert.equal(dir?.kind, 'dir');
  await refused(service.call('files.list', { root: 'home', rel: dir!.name }), 'rel', /not valid UTF-8; rename it/);
});

test('datasets.inspect of a FIFO named x.npy is refused naming the file, and the engine keeps answering', async () => {
  const fifo = join(home.path, 'f.npy');
  execFileSync('mkfifo', [fifo]);
  // listed without a reference; a reference issued anyway is still refused by the engine
  assert.equal(entry('f.npy')!.ref, undefined);
  assert.match(entry('f.npy')!.name, /not a regular file \(a FIFO\): not opened/);
  const ref = service.refs.issue(realpathSync(fifo));
  const t0 = Date.now();
  const e = await service.call('datasets.inspect', { file: ref }).then(() => assert.fail('a FIFO was listed'), (x) => ApiError.from(x));
  assert.match(e.message, /f\.npy: is not a regular file \(it is a FIFO \(named pipe\)\)/);
  assert.equal(e.details.file, realpathSync(fifo));
  assert.ok(Date.now() - t0 < 30_000);
  const pong = (await service.call('engine.ping', { t: 7 })) as { t: number };
  assert.equal(pong.t, 7);
});
