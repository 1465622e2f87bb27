// Backend selection: order, reasons for every skipped backend, forcing.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import * as tf from '@tensorflow/tfjs';
import { BACKEND_ORDER, selectBackend, formatBackendReport } from '../../../main/ops/backend';

const require = createRequire(import.meta.url);
const installed = (p: string) => { try { require.resolve(p); return true; } catch { return false; } };

test('automatic selection tries tensorflow-gpu, tensorflow, wasm, cpu in order and says why each was skipped', async () => {
  const r = await selectBackend(undefined);
  assert.deepEqual(r.attempts.map((a) => a.name), BACKEND_ORDER.slice(0, r.attempts.length));
  assert.equal(r.attempts.at(-1)!.ok, true);
  assert.equal(r.attempts.at(-1)!.name, r.active);
  assert.equal(tf.getBackend(), r.tfBackend);
  for (const a of r.attempts.slice(0, -1)) {
    assert.equal(a.ok, false);
    assert.ok(a.reason.length > 10, `${a.name}: reason '${a.reason}'`);
  }
  if (!installed('@tensorflow/tfjs-node-gpu')) assert.match(r.attempts[0]!.reason, /@tensorflow\/tfjs-node-gpu unavailable/);
  if (!installed('@tensorflow/tfjs-node-gpu') && !installed('@tensorflow/tfjs-node')) assert.equal(r.active, 'wasm');
  assert.match(formatBackendReport(r), new RegExp(`backend: ${r.active}`));
});

test('a forced backend is used or fails with its reason', async () => {
  const r = await selectBackend('cpu');
  assert.equal(r.active, 'cpu');
  assert.equal(tf.getBackend(), 'cpu');
  await assert.rejects(selectBackend('metal'), /backend 'metal' is not one of tensorflow-gpu, tensorflow, wasm, cpu/);
  if (!installed('@tensorflow/tfjs-node')) await assert.rejects(selectBackend('tensorflow'), /backend 'tensorflow' could not be used .*tfjs-node unavailable/);
});
