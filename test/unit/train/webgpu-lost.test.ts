// A lost GPU device (driver reset, GPU removed) fails the run with a readable reason, and the run
// resumes from its last checkpoint. The loss is provoked with device.destroy(), which leaves the
// backend unusable: this file has its own process (node --test runs files apart).
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import * as tf from '../../../main/ops/tf';
import { trainRun } from '../../../main/train/runner';
import { RunStore } from '../../../main/runs/run-store';
import { readCheckpointState } from '../../../main/runs/checkpoint';
import { webgpuSkipReason } from '../../helpers/webgpu';
import { tempDir } from '../../helpers/env';

const skip = await webgpuSkipReason();
const ws = tempDir('lino-webgpu-lost-');
after(() => ws.cleanup());

test('a lost webgpu device fails the run with a readable reason; the run resumes from checkpoints/last', { skip: skip ?? false, timeout: 300_000 }, async () => {
  const store = new RunStore(join(ws.path, 'runs'));
  const h = store.create({ name: 'lost', model: { width: 6, depth: 1 }, data: { kind: 'synthetic', grid: [6, 6], train: 4, val: 2 }, epochs: 3, batchSize: 2, optimizer: { lr: 3e-3 } }, 'lost');
  assert.ok(await tf.setBackend('webgpu'));
  const device = (tf.backend() as unknown as { device: { destroy(): void } }).device;
  await assert.rejects(trainRun(h, { onEpoch: (e) => { if (e.epoch === 1) device.destroy(); } }), /GPU device lost/);
  const st = h.readStatus();
  assert.equal(st.state, 'failed');
  assert.match(st.reason!, /GPU device lost \(destroyed.*resumes from its last checkpoint/);
  assert.equal(readCheckpointState(h.dir, 'last')!.epoch, 1);
  // The user starts it again (here on cpu: this process's device is gone).
  assert.ok(await tf.setBackend('cpu'));
  const r = await trainRun(h);
  assert.equal(r.state, 'done');
  assert.equal(r.epoch, 3);
});
