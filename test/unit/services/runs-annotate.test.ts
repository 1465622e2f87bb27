// runs.annotate: notes and tags stored in runs/<id>/meta.json, shown by runs.list and runs.get;
// hostile input (oversized notes, bad tags, unknown or path-like ids) is refused naming the field
// and leaves the stored notes as they were.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ApiError, RUN_NOTES_MAX } from '../../../main/api/contract';
import { WorkbenchService } from '../../../main/services/workbench-service';
import { RunStore } from '../../../main/runs/run-store';
import { readRunMeta } from '../../../main/runs/run-meta';
import { isolateConfig, tempDir } from '../../helpers/env';

const restore = isolateConfig();
const ws = tempDir('lino-ws-');
after(() => {
  ws.cleanup();
  restore();
});
const noEngine = () => {
  throw new Error('runs.annotate must not reach the engine');
};
const service = new WorkbenchService({ host: 'browser', launcher: noEngine as never, workspace: ws.path });
const store = () => new RunStore(join(ws.path, 'runs'));
const refused = (field: string, code = 'invalid_params') => (e: unknown) => e instanceof ApiError && e.code === code && new RegExp(`^${field}(\\.|$)`).test(String((e.details as { field?: string }).field));

test('runs.annotate: notes and tags stored in the run folder, listed with the run, tags deduplicated', async () => {
  await service.call('workspace.get', {});
  const run = store().create({ name: 'noted' }, 'noted-run');
  assert.deepEqual(await service.call('runs.annotate', { id: run.id, notes: 'lr too high?\nsee epoch 3', tags: ['baseline', 'darcy', 'baseline'] }), { notes: 'lr too high?\nsee epoch 3', tags: ['baseline', 'darcy'] });
  assert.deepEqual(JSON.parse(readFileSync(join(run.dir, 'meta.json'), 'utf8')), { notes: 'lr too high?\nsee epoch 3', tags: ['baseline', 'darcy'] });
  // Only the fields given change.
  assert.deepEqual(await service.call('runs.annotate', { id: run.id, tags: ['v2'] }), { notes: 'lr too high?\nsee epoch 3', tags: ['v2'] });
  const listed = ((await service.call('runs.list', {})) as { id: string; notes?: string; tags?: string[] }[]).find((r) => r.id === run.id)!;
  assert.deepEqual([listed.notes, listed.tags], ['lr too high?\nsee epoch 3', ['v2']]);
  const got = (await service.call('runs.get', { id: run.id })) as { summary: { tags?: string[] } };
  assert.deepEqual(got.summary.tags, ['v2']);
  // training never reads meta.json: config.json is untouched
  assert.equal(JSON.parse(readFileSync(run.configPath, 'utf8')).name, 'noted');
});

test('runs.annotate: oversized notes, bad tags and foreign ids are refused; nothing is written', async () => {
  const run = store().create({ name: 'guarded' }, 'guarded-run');
  await service.call('runs.annotate', { id: run.id, notes: 'keep me', tags: ['ok'] });
  await assert.rejects(service.call('runs.annotate', { id: run.id, notes: 'x'.repeat(RUN_NOTES_MAX + 1) }), refused('notes'));
  await assert.rejects(service.call('runs.annotate', { id: run.id, notes: 'bell\u0007' }), refused('notes'));
  for (const bad of ['has space', '../up', '', 'x'.repeat(33), '<script>', '-lead']) {
    await assert.rejects(service.call('runs.annotate', { id: run.id, tags: [bad] }), refused('tags'), `tag ${JSON.stringify(bad)}`);
  }
  await assert.rejects(service.call('runs.annotate', { id: run.id, tags: Array.from({ length: 17 }, (_, i) => `t${i}`) }), refused('tags'));
  await assert.rejects(service.call('runs.annotate', { id: run.id, notes: 42 }), refused('notes'));
  await assert.rejects(service.call('runs.annotate', { id: run.id, extra: 1 }));
  assert.deepEqual(readRunMeta(run.dir), { notes: 'keep me', tags: ['ok'] });
  // Unknown ids and ids that are paths never reach the file system.
  await assert.rejects(service.call('runs.annotate', { id: 'no-such-run', notes: 'x' }), refused('id', 'not_found'));
  for (const id of ['../guarded-run', '..', '/etc', 'a/b', '.hidden']) {
    await assert.rejects(service.call('runs.annotate', { id, notes: 'x' }), refused('id'), `id ${id}`);
  }
  assert.equal(existsSync(join(ws.path, 'meta.json')), false);
});

test('meta.json: a damaged or hand-edited file reads as no notes and does not break runs.list', async () => {
  const run = store().create({ name: 'damaged' }, 'damaged-run');
  writeFileSync(join(run.dir, 'meta.json'), '{"notes": 5, "tags": ["a b"]}');
  assert.deepEqual(readRunMeta(run.dir), { notes: '', tags: [] });
  const listed = ((await service.call('runs.list', {})) as { id: string; tags?: string[] }[]).find((r) => r.id === run.id)!;
  assert.equal(listed.tags, undefined);
});
