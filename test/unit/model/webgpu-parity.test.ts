// Parity with the PyTorch reference on the webgpu backend (the fixtures of parity.test.ts):
// forward and gate weights <= 1e-5, gradients <= 1e-4. On our machines the adapter is SwiftShader
// (a software Vulkan GPU from Debian's chromium package), so this checks the WGSL kernels' maths,
// not speed. Skips with the reason when no adapter exists.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as tf from '../../../main/ops/tf';
import { checkParityCases } from '../../helpers/parity-cases';
import { webgpuSkipReason } from '../../helpers/webgpu';

const skip = await webgpuSkipReason();

// SwiftShader compiles every pipeline on the CPU: minutes on a loaded 2-core machine; the limit only catches a hang.
test('parity with PyTorch on webgpu', { skip: skip ?? false, timeout: 900_000 }, async (t) => {
  assert.ok(await tf.setBackend('webgpu'));
  try {
    await checkParityCases(t);
  } finally {
    await tf.setBackend('cpu');
  }
});
