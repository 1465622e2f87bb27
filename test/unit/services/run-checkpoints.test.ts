// runs.checkpoints lists best/last with epoch, step, size and date; runs.exportCheckpoint copies a
// checkpoint's weights into exports/ (what exports.read then downloads) from a run id and
// 'best' | 'last' only: unknown ids, path-like ids and missing checkpoints are refused.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ApiError } from '../../../main/api/contract';
import { WorkbenchService } from '../../../main/services/workbench-service';
import { RunStore } from '../../../main/runs/run-store';
import { isolateConfig, tempDir } from '../../helpers/env';

const restore = isolateConfig();
const ws = tempDir('lino-ws-');
after(() => {
  ws.cleanup();
  restore();
});
const service = new WorkbenchService({ host: 'browser', launcher: (() => { throw new Error('no engine here'); }) as never, workspace: ws.path });

function fakeCheckpoint(runDir: string, name: string, epoch: number, weights: Buffer) {
  const dir = join(runDir, 'checkpoints', name);
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'weights.safetensors'), weights);
  writeFileSync(join(dir, 'optimizer.safetensors'), Buffer.alloc(8));
  // a state.json that passes the checkpoint schema (main/runs/checkpoint.ts), without checksums
  writeFileSync(join(dir, 'state.json'), JSON.stringify({
    format: 'lino-checkpoint', version: 1, epoch, globalStep: epoch * 4,
    optimizer: { name: 'adamw', step: epoch * 4, lr: 1e-3, weightDecay: 1e-5, beta1: 0.9, beta2: 0.999, eps: 1e-8 },
    scheduler: { name: 'steplr', lastEpoch: epoch, lr: 1e-3, stepSize: 5, gamma: 0.96 },
    rng: null, normalizer: null, best: { epoch: 1, valRelL2: 0.25 }, backend: 'cpu', savedAt: `2026-01-0${epoch}T00:00:00.000Z`, metricsRecords: epoch,
  }));
}

test('checkpoints listed with epoch, step, size and date; a download copies the weights into exports/', async () => {
  await service.call('workspace.get', {});
  const run = new RunStore(join(ws.path, 'runs')).create({ name: 'ck' }, 'ck-run');
  assert.deepEqual(await service.call('runs.checkpoints', { id: run.id }), []);
  await assert.rejects(service.call('runs.exportCheckpoint', { id: run.id, checkpoint: 'best' }), (e: unknown) => e instanceof ApiError && e.code === 'not_found' && e.details.field === 'checkpoint');
  const best = Buffer.from('best-weights-bytes');
  fakeCheckpoint(run.dir, 'best', 1, best);
  fakeCheckpoint(run.dir, 'last', 2, Buffer.alloc(100, 7));
  assert.deepEqual(await service.call('runs.checkpoints', { id: run.id }), [
    { checkpoint: 'best', epoch: 1, step: 4, bytes: best.length, savedAt: '2026-01-01T00:00:00.000Z', bestValRelL2: 0.25 },
    { checkpoint: 'last', epoch: 2, step: 8, bytes: 100, savedAt: '2026-01-02T00:00:00.000Z', bestValRelL2: 0.25 },
  ]);
  const r = (await service.call('runs.exportCheckpoint', { id: run.id, checkpoint: 'best' })) as { name: string; size: number };
  assert.deepEqual(r, { name: 'ck-run-best-epoch1.safetensors', size: best.length });
  // A second download never overwrites the first.
  assert.equal(((await service.call('runs.exportCheckpoint', { id: run.id, checkpoint: 'best' })) as { name: string }).name, 'ck-run-best-epoch1-2.safetensors');
  const read = (await service.call('exports.read', { name: r.name })) as { data: string };
  assert.deepEqual(Buffer.from(read.data, 'base64'), best);
  assert.deepEqual(readFileSync(join(ws.path, 'exports', r.name)), best);
});

test('checkpoint export refuses unknown and path-like run ids and other checkpoint names', async () => {
  const before = readdirSync(join(ws.path, 'exports')).sort();
  await assert.rejects(service.call('runs.exportCheckpoint', { id: 'no-such-run', checkpoint: 'last' }), (e: unknown) => e instanceof ApiError && e.code === 'not_found');
  for (const id of ['../ck-run', '/etc', 'a/../ck-run', '.ck']) {
    await assert.rejects(service.call('runs.exportCheckpoint', { id, checkpoint: 'last' }), (e: unknown) => e instanceof ApiError && e.code === 'invalid_params' && e.details.field === 'id', id);
    await assert.rejects(service.call('runs.checkpoints', { id }), (e: unknown) => e instanceof ApiError && e.code === 'invalid_params', id);
  }
  for (const checkpoint of ['../best', 'best/../../x', 'optimizer']) {
    await assert.rejects(service.call('runs.exportCheckpoint', { id: 'ck-run', checkpoint }), (e: unknown) => e instanceof ApiError && e.code === 'invalid_params' && e.details.field === 'checkpoint');
  }
  await assert.rejects(service.call('runs.exportCheckpoint', { id: 'ck-run', checkpoint: 'best', path: '/tmp/x' }), (e: unknown) => e instanceof ApiError && e.code === 'invalid_params');
  assert.deepEqual(readdirSync(join(ws.path, 'exports')).sort(), before);
});
