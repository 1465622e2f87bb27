// Parity with the PyTorch reference (tools/parity): committed fixtures for 1D/2D x full/efficient
// x single-branch ablations (+ all three, + refraction&scattering). Forward rel. error <= 1e-5,
// gate weights <= 1e-5, gradient of sum(y * w) wrt every parameter <= 1e-4, on wasm and cpu.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as tf from '../../../main/ops/tf';
import '@tensorflow/tfjs-backend-wasm';
import { listCases, runCase } from './parity-helpers';

for (const backend of ['cpu', 'wasm']) {
  test(`parity with PyTorch on ${backend}`, async (t) => {
    assert.ok(await tf.setBackend(backend), `backend ${backend} failed to initialise`);
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
  });
}
