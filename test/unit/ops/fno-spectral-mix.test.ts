// ops/spectral-mix.ts: the fused kernels (cpu: one JS loop for the forward, one for the gradient;
// wasm: WebAssembly SIMD on the heap, main/ops/wasm/spectral-mix.wat) agree with the composed tf ops
// that webgpu runs, in value and in the gradients of spectrum and weights, for the 2-D layout (two
// weight tensors) and the 1-D one (one), with mode counts that are and are not multiples of the
// SIMD kernel's four lanes; bad shapes and dtypes are refused. Parity with PyTorch: fno-parity.test.ts.
// The threaded wasm build (a shared memory): test/integration/ops/wasm-threads.test.ts.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as tf from '../../../main/ops/tf';
import '@tensorflow/tfjs-backend-wasm';
import { setFusedKernels } from '../../../main/ops/kernel-registry';
import { spectralMix } from '../../../main/ops/spectral-mix';
import { relErr } from '../../helpers/parity-cases';

async function valueAndGrads(x: tf.Tensor, ws: tf.Tensor[], probe: tf.Tensor, fused: boolean): Promise<Float32Array[]> {
  setFusedKernels(fused);
  try {
    const f = (...t: tf.Tensor[]) => tf.sum(tf.mul(spectralMix(t[0]!, t.slice(1)), probe));
    const y = spectralMix(x, ws);
    const g = tf.grads(f)([x, ...ws]);
    const out = await Promise.all([y, ...g].map(async (t) => (await t.data()) as Float32Array));
    tf.dispose([y, ...g]);
    return out;
  } finally {
    setFusedKernels(true);
  }
}

for (const backend of ['cpu', 'wasm']) {
  test(`spectralMix: fused kernels match the composed ops on ${backend}`, async () => {
    assert.ok(await tf.setBackend(backend));
    const cases = [
      { name: '2d', x: [2, 3, 4, 2, 6], w: [3, 5, 3, 4, 2], G: 2 },
      { name: '1d', x: [3, 4, 1, 2, 5], w: [4, 2, 5, 1, 2], G: 1 },
      { name: '2d, modes in fours', x: [3, 6, 5, 2, 8], w: [6, 4, 4, 5, 2], G: 2 },
      { name: '1d, 3 modes (no full SIMD lane)', x: [2, 3, 1, 2, 3], w: [3, 3, 3, 1, 2], G: 1 },
    ];
    for (const c of cases) {
      const before = tf.memory().numTensors;
      const x = tf.randomNormal(c.x, 0, 1, 'float32', 1);
      const ws = Array.from({ length: c.G }, (_, g) => tf.randomNormal(c.w, 0, 1, 'float32', 2 + g));
      const probe = tf.randomNormal([c.x[0]!, c.w[1]!, c.x[2]!, 2, c.x[4]!], 0, 1, 'float32', 9);
      const fused = await valueAndGrads(x, ws, probe, true);
      const composed = await valueAndGrads(x, ws, probe, false);
      assert.equal(fused.length, 2 + c.G);
      fused.forEach((f, i) => {
        const e = relErr(f, composed[i]!);
        assert.ok(e <= 1e-5, `${c.name}: output ${i} (0: value, 1: d spectrum, 2+: d weights) rel. error ${e}`);
      });
      tf.dispose([x, ...ws, probe]);
      assert.equal(tf.memory().numTensors, before, `${c.name}: tensors leaked`);
    }
  });
}

test('spectralMix refuses shapes that are not [B, C, P, 2, Q] with weights [C, Co, Q/G, P, 2]', () => {
  const x = tf.zeros([2, 3, 4, 2, 6]);
  const bad = [
    [tf.zeros([3, 5, 6, 4, 2])], // two weights expected for Q = 6 at Qg = 3, one given with Qg = 6: fine
    [tf.zeros([4, 5, 3, 4, 2]), tf.zeros([4, 5, 3, 4, 2])], // C differs
    [tf.zeros([3, 5, 3, 4, 2]), tf.zeros([3, 6, 3, 4, 2])], // the two weights differ
    [tf.zeros([3, 5, 3, 4])], // no re/im axis
  ];
  assert.doesNotThrow(() => spectralMix(x, bad[0]!).dispose());
  for (const ws of bad.slice(1)) assert.throws(() => spectralMix(x, ws), /spectralMix: (expected spectrum \[B, C, P, 2, Q\]|weight shapes differ)/);
  assert.throws(() => spectralMix(x, []), /expected 1 or 2 weight tensors/);
  tf.dispose([x, ...bad.flat()]);
});

for (const backend of ['cpu', 'wasm']) {
  test(`spectralMix's kernels on ${backend} refuse a spectrum that is not float32`, async () => {
    assert.ok(await tf.setBackend(backend));
    const x = tf.zeros([2, 3, 4, 2, 6], 'int32');
    const ws = [tf.zeros([3, 5, 3, 4, 2]), tf.zeros([3, 5, 3, 4, 2])];
    assert.throws(() => spectralMix(x, ws), /FnoSpectralMix: inputs must be float32, got int32/);
    tf.dispose([x, ...ws]);
  });
}
