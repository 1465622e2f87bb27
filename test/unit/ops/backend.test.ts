// Backend selection: order, reasons for every skipped backend, forcing.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import * as tf from '../../../main/ops/tf';
import { BACKEND_ORDER, selectBackend, formatBackendReport } from '../../../main/ops/backend';
import { describeAdapter } from '../../../main/ops/webgpu-env';
import { webgpuSkipReason } from '../../helpers/webgpu';

const require = createRequire(import.meta.url);
const installed = (p: string) => { try { require.resolve(p); return true; } catch { return false; } };

test('automatic selection tries tensorflow-gpu, webgpu, tensorflow, wasm, cpu in order and says why each was skipped', async () => {
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
  // webgpu is chosen automatically only on a hardware adapter
  const w = r.attempts.find((a) => a.name === 'webgpu')!;
  if (w.ok) assert.equal(r.adapter!.fallback, false);
  else assert.match(w.reason, /no WebGPU adapter|only a software adapter|webgpu \(dawn.node\) unavailable/);
});

test('software adapters are recognised (never picked automatically), hardware ones are not', () => {
  const sw = describeAdapter({ info: { vendor: 'google', architecture: 'swiftshader', device: 'swiftshader-device-subzero-', description: 'SwiftShader driver 5.0.0', isFallbackAdapter: false } });
  assert.equal(sw.fallback, true);
  assert.equal(describeAdapter({ info: { vendor: 'mesa', architecture: '', description: 'llvmpipe (LLVM 15.0.6, 256 bits)' } }).fallback, true);
  assert.equal(describeAdapter({ info: { vendor: 'x', architecture: 'y', description: 'z', isFallbackAdapter: true } }).fallback, true);
  assert.equal(describeAdapter({ info: { vendor: 'nvidia', architecture: 'hopper', device: '', description: 'NVIDIA H200' } }).fallback, false);
});

test('--backend webgpu selects webgpu (a software adapter allowed) and reports its adapter', { skip: (await webgpuSkipReason()) ?? false }, async () => {
  const r = await selectBackend('webgpu');
  assert.equal(r.active, 'webgpu');
  assert.equal(tf.getBackend(), 'webgpu');
  assert.ok(r.adapter && typeof r.adapter.fallback === 'boolean');
  assert.match(formatBackendReport(r), /^backend: webgpu\nadapter: .*(hardware|software fallback)/);
  await tf.setBackend('cpu');
});

test('a forced backend is used or fails with its reason', async () => {
  const r = await selectBackend('cpu');
  assert.equal(r.active, 'cpu');
  assert.equal(tf.getBackend(), 'cpu');
  await assert.rejects(selectBackend('metal'), /backend 'metal' is not one of tensorflow-gpu, webgpu, tensorflow, wasm, cpu/);
  if (!installed('@tensorflow/tfjs-node')) await assert.rejects(selectBackend('tensorflow'), /backend 'tensorflow' could not be used .*tfjs-node unavailable/);
});
