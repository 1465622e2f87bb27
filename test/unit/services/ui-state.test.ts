// ui.state.get / ui.state.set and exports.list / exports.read on the host side: a round trip through
// the service both hosts use (no engine involved), atomic writes, a damaged or foreign state file
// ignored with a warning, the size limit, and exports listed and read only inside exports/.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, readFileSync, readdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { UI_STATE_MAX_BYTES, type WorkbenchEvent } from '../../../main/api/contract';
import { WorkbenchService } from '../../../main/services/workbench-service';
import { uiStatePath } from '../../../main/services/ui-state';
import { isolateConfig, tempDir } from '../../helpers/env';

const restore = isolateConfig();
const ws = tempDir('lino-ws-');
const outside = tempDir('lino-outside-');
// The engine is never started: every call here is answered by the host.
const noEngine = () => {
  throw new Error('these calls must not reach the engine');
};
const service = new WorkbenchService({ host: 'browser', launcher: noEngine as never, workspace: ws.path });
const events: WorkbenchEvent[] = [];
service.onEvent((e) => events.push(e));
after(() => {
  ws.cleanup();
  outside.cleanup();
  restore();
});

test('ui state: nothing saved yet, then a round trip of what was set', async () => {
  assert.deepEqual(await service.call('ui.state.get', {}), { state: null });
  const state = { view: 'runs', theme: 'dark', selectedRun: 'r-1', views: { fields: { which: 'worst' } } };
  const r = (await service.call('ui.state.set', { state })) as { bytes: number };
  assert.equal(r.bytes, JSON.stringify(state).length);
  assert.deepEqual(await service.call('ui.state.get', {}), { state });
  // A fresh service (a restarted host) on the same workspace reads it back.
  const again = new WorkbenchService({ host: 'browser', launcher: noEngine as never, workspace: ws.path });
  assert.deepEqual(await again.call('ui.state.get', {}), { state });
  const file = JSON.parse(readFileSync(uiStatePath(ws.path), 'utf8'));
  assert.equal(file.format, 'lino-ui-state');
  assert.equal(file.version, 1);
});

test('ui state: writes are atomic (whole file replaced, no temporary files left)', async () => {
  for (let i = 0; i < 20; i++) await service.call('ui.state.set', { state: { view: 'runs', n: i } });
  assert.deepEqual(readdirSync(join(ws.path, '.lino')), ['ui-state.json']);
  assert.deepEqual(JSON.parse(readFileSync(uiStatePath(ws.path), 'utf8')).state, { view: 'runs', n: 19 });
});

test('ui state: a corrupt, foreign or invalid file is ignored with a warning, and the next save repairs it', async () => {
  const cases: [string, RegExp][] = [
    ['{"format":"lino-ui-state","version":1,"state":{"view":', /Unexpected end|JSON/],
    ['{"hello":"world"}', /not a 'lino-ui-state' file/],
    ['{"format":"lino-ui-state","version":7,"state":{}}', /version 7, expected 1/],
    ['{"format":"lino-ui-state","version":1,"state":[1,2]}', /field 'state'/],
  ];
  for (const [text, why] of cases) {
    writeFileSync(uiStatePath(ws.path), text);
    events.length = 0;
    const r = (await service.call('ui.state.get', {})) as { state: unknown; warning?: string };
    assert.equal(r.state, null, text);
    assert.match(r.warning ?? '', why);
    assert.match(r.warning ?? '', /ignored the saved UI state .*ui-state\.json/);
    assert.ok(events.some((e) => e.type === 'log' && e.level === 'warn' && /ignored the saved UI state/.test(e.message)), 'a log message says so');
  }
  await service.call('ui.state.set', { state: { view: 'datasets' } });
  assert.deepEqual(await service.call('ui.state.get', {}), { state: { view: 'datasets' } });
});

test('ui state: over the size limit or not an object is refused, naming the field; the saved state stays', async () => {
  const big = { blob: 'x'.repeat(UI_STATE_MAX_BYTES) };
  await assert.rejects(service.call('ui.state.set', { state: big }), (e: Error & { code?: string; details?: { field?: string } }) => e.code === 'invalid_params' && e.details?.field === 'state' && /at most 64 KiB/.test(e.message));
  await assert.rejects(service.call('ui.state.set', { state: 'view=runs' }), /invalid parameter 'state'/);
  await assert.rejects(service.call('ui.state.set', { state: {}, extra: 1 }), /invalid parameter/);
  assert.deepEqual(await service.call('ui.state.get', {}), { state: { view: 'datasets' } });
});

test('exports.list lists files and one level of folders, newest first, without hidden or partial files', async () => {
  const dir = join(ws.path, 'exports');
  writeFileSync(join(dir, 'a.csv'), 'x,y\r\n');
  mkdirSync(join(dir, 'ds-raw-npy', 'deeper'), { recursive: true });
  writeFileSync(join(dir, 'ds-raw-npy', 'coeff.npy'), Buffer.alloc(10));
  writeFileSync(join(dir, 'ds-raw-npy', 'deeper', 'no.txt'), 'not listed');
  writeFileSync(join(dir, '.a.csv.123.tmp'), 'partial');
  mkdirSync(join(dir, '.ds.1.partial'));
  writeFileSync(join(dir, '.ds.1.partial', 'u.npy'), 'partial');
  const list = (await service.call('exports.list', {})) as { name: string; size: number; modified: string }[];
  assert.deepEqual(list.map((e) => e.name).sort(), ['a.csv', 'ds-raw-npy/coeff.npy']);
  assert.equal(list.find((e) => e.name === 'a.csv')!.size, 5);
  assert.ok(list.every((e) => !Number.isNaN(Date.parse(e.modified))));
});

test('exports.read returns the bytes of a file in exports/ and refuses anything else', async () => {
  const r = (await service.call('exports.read', { name: 'a.csv' })) as { name: string; mime: string; size: number; data: string };
  assert.deepEqual([r.name, r.mime, r.size, Buffer.from(r.data, 'base64').toString()], ['a.csv', 'text/csv', 5, 'x,y\r\n']);
  const n = (await service.call('exports.read', { name: 'ds-raw-npy/coeff.npy' })) as { size: number };
  assert.equal(n.size, 10);
  for (const bad of ['../workspace.json', 'ds-raw-npy/../../workspace.json', '.lino', '/etc/passwd', 'a/b/c.txt', 'x\\y']) {
    await assert.rejects(service.call('exports.read', { name: bad }), /invalid parameter 'name'/, bad);
  }
  await assert.rejects(service.call('exports.read', { name: 'missing.csv' }), (e: Error & { code?: string }) => e.code === 'not_found');
  await assert.rejects(service.call('exports.read', { name: 'ds-raw-npy' }), /is not a file/);
  // A link inside exports/ pointing out of it is refused.
  writeFileSync(join(outside.path, 'secret.txt'), 'secret');
  symlinkSync(join(outside.path, 'secret.txt'), join(ws.path, 'exports', 'link.txt'));
  await assert.rejects(service.call('exports.read', { name: 'link.txt' }), (e: Error & { code?: string }) => e.code === 'forbidden');
});
