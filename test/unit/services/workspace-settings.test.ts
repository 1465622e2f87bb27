// The workspace setting that chooses the relL2 every view headlines: workspace.settings sets it in
// the workspace's workspace.json (kept with the folder, its other fields kept), workspace.get
// answers it, a bad value is refused naming the field and the values expected, and a hand-edited
// file with a stale value falls back to the default.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ApiError, type WorkspaceSummary } from '../../../main/api/contract';
import { WorkbenchService } from '../../../main/services/workbench-service';
import { isolateConfig, tempDir } from '../../helpers/env';

const restore = isolateConfig();
const ws = tempDir('lino-ws-');
after(() => {
  ws.cleanup();
  restore();
});
const noEngine = () => {
  throw new Error('workspace.settings must not reach the engine');
};
const service = new WorkbenchService({ host: 'browser', launcher: noEngine as never, workspace: ws.path });
const marker = () => JSON.parse(readFileSync(join(ws.path, 'workspace.json'), 'utf8')) as Record<string, unknown>;
const summary = async () => (await service.call('workspace.get', {})) as WorkspaceSummary;

test('workspace.settings: normalized by default, set to decoded and back, kept in workspace.json beside its marker', async () => {
  assert.deepEqual(await service.call('workspace.settings', {}), { relL2Headline: 'normalized' });
  assert.equal((await summary()).settings.relL2Headline, 'normalized');
  const created = marker().created;
  assert.deepEqual(await service.call('workspace.settings', { relL2Headline: 'decoded' }), { relL2Headline: 'decoded' });
  assert.equal((await summary()).settings.relL2Headline, 'decoded');
  assert.deepEqual(marker(), { format: 'lino-workspace', version: 1, created, settings: { relL2Headline: 'decoded' } });
  // a read changes nothing
  assert.deepEqual(await service.call('workspace.settings', {}), { relL2Headline: 'decoded' });
  await service.call('workspace.settings', { relL2Headline: 'normalized' });
  assert.equal((await summary()).settings.relL2Headline, 'normalized');
});

test('workspace.settings refuses a bad value naming the field and what was expected; the setting stays', async () => {
  await service.call('workspace.settings', { relL2Headline: 'decoded' });
  await assert.rejects(service.call('workspace.settings', { relL2Headline: 'physical' }), (e: unknown) => {
    assert.ok(e instanceof ApiError, String(e));
    assert.equal(e.code, 'invalid_params');
    assert.equal((e.details as { field?: string }).field, 'relL2Headline');
    assert.match(e.message, /workspace\.settings: invalid parameter 'relL2Headline'/);
    assert.match(e.message, /normalized/);
    assert.match(e.message, /decoded/);
    return true;
  });
  await assert.rejects(service.call('workspace.settings', { headline: 'decoded' }), (e: unknown) => e instanceof ApiError && e.code === 'invalid_params');
  assert.equal((await summary()).settings.relL2Headline, 'decoded');
});

test('a hand-edited workspace.json with a stale value reads as the default', async () => {
  writeFileSync(join(ws.path, 'workspace.json'), JSON.stringify({ format: 'lino-workspace', version: 1, settings: { relL2Headline: 'both' } }));
  assert.equal((await summary()).settings.relL2Headline, 'normalized');
  writeFileSync(join(ws.path, 'workspace.json'), '{ not json');
  assert.deepEqual(await service.call('workspace.settings', {}), { relL2Headline: 'normalized' });
  assert.deepEqual(await service.call('workspace.settings', { relL2Headline: 'decoded' }), { relL2Headline: 'decoded' });
  assert.equal(marker().format, 'lino-workspace');
});
