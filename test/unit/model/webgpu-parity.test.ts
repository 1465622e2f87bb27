// Parity with the PyTorch reference on the webgpu backend (the fixtures of parity.test.ts):
// forward and gate weights <= 1e-5, gradients <= 1e-4. On our machines the adapter is SwiftShader
// (a software Vulkan GPU from Debian's chromium package), so this checks the WGSL kernels' maths,
// not speed. Skips with the reason when no adapter exists.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as tf from '../../../main/ops/tf';
import { listCases, runCase } from './parity-helpers';
import { webgpuSkipReason } from '../../helpers/webgpu';

const skip = await webgpuSkipReason();

// SwiftShader compiles every pipeline on the CPU: minutes on a loaded 2-core machine; the limit only catches a hang.
test('parity with PyTorch on webgpu', { skip: skip ?? false, timeout: 900_000 }, async (t) => {
  assert.ok(await tf.setBackend('webgpu'));
  try {
    const cases = listCases();
    assert.equal(cases.length, 14);
    for (const c of cases) {
      await t.test(c.name, async () => {
        const before = tf.memory().numTensors;
        const r = await runCase(c);
        assert.ok(r.forward <= 1e-5, `${c.name}: forward rel. error ${r.forward}`);
        assert.ok(r.alpha <= 1e-5, `${c.name}: alpha rel. error ${r.alpha}`);
        assert.ok(r.grads.size > 0);
        for (const [k, e] of r.grads) assert.ok(e <= 1e-4, `${c.name}: gradient of ${k} rel. error ${e}`);
        assert.equal(tf.memory().numTensors, before, 'tensors leaked');
      });
    }
  } finally {
    await tf.setBackend('cpu');
  }
});
