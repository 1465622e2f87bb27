// Parity with the PyTorch reference (tools/parity): committed fixtures for 1D/2D x full/efficient
// x single-branch ablations (+ all three, + refraction&scattering). Forward rel. error <= 1e-5,
// gate weights <= 1e-5, gradient of sum(y * w) wrt every parameter <= 1e-4, on wasm and cpu.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as tf from '../../../main/ops/tf';
import '@tensorflow/tfjs-backend-wasm';
import { checkParityCases } from '../../helpers/parity-cases';

for (const backend of ['cpu', 'wasm']) {
  test(`parity with PyTorch on ${backend}`, async (t) => {
    assert.ok(await tf.setBackend(backend), `backend ${backend} failed to initialise`);
    await checkParityCases(t);
  });
}
