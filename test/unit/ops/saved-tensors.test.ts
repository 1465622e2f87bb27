// Tensors saved for backward share their buffer by reference count (main/ops/tfjs-internals/saved-tensors.ts)
// instead of dispatching an Identity kernel each: same gradients, the saved tensor outlives the
// tidy that made its original, and nothing leaks, on cpu and wasm.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as tf from '../../../main/ops/tf';
import '@tensorflow/tfjs-backend-wasm';
import { ensureFastWasmKernels } from '../../../main/ops/tfjs-internals/wasm-kernels';

/** Kernel names the engine dispatches while f runs. */
function dispatched(f: () => void): string[] {
  const engine = tf.engine() as unknown as { runKernelFunc(p: { kernelName?: string }): unknown };
  const names: string[] = [];
  const orig = engine.runKernelFunc;
  engine.runKernelFunc = function (this: unknown, p: { kernelName?: string }) {
    if (p.kernelName) names.push(p.kernelName);
    return orig.call(this, p);
  };
  try {
    f();
  } finally {
    engine.runKernelFunc = orig;
  }
  return names;
}

// f(x, w) = sum(cube(x * w)) through a customGrad op that saves an intermediate made (and disposed)
// inside an inner tidy, and a built-in kernel (Multiply) that saves both its inputs
const cube = tf.customGrad(((u: tf.Tensor, save: tf.GradSaveFunc) => {
  save([u]);
  return { value: tf.mul(tf.square(u), u), gradFunc: (dy: tf.Tensor, [s]: tf.Tensor[]) => tf.mul(dy, tf.mul(tf.square(s!), 3)) };
}) as unknown as Parameters<typeof tf.customGrad>[0]) as (u: tf.Tensor) => tf.Tensor;

for (const backend of ['cpu', 'wasm']) {
  test(`saving for backward dispatches no Identity, gives the same gradients and leaks nothing (${backend})`, async () => {
    if (backend === 'wasm') ensureFastWasmKernels();
    assert.ok(await tf.setBackend(backend));
    const x = tf.tensor1d([0.5, -1, 2]);
    const w = tf.variable(tf.tensor1d([1.5, 0.25, -0.5]), true, `saved-${backend}-w`);
    const before = tf.memory().numTensors;
    const bytesBefore = tf.memory().numBytes;
    let r: { value: tf.Scalar; grads: tf.NamedTensorMap } | undefined;
    const names = dispatched(() => {
      r = tf.variableGrads(() => tf.sum(tf.tidy(() => cube(tf.mul(x, w)))) as tf.Scalar, [w]);
    });
    assert.deepEqual(names.filter((n) => n === 'Identity'), [], `kernels: ${names.join(', ')}`);
    const xs = [0.5, -1, 2];
    const ws = [1.5, 0.25, -0.5];
    // d/dw sum((x w)^3) = 3 (x w)^2 x
    const want = xs.map((xi, i) => 3 * (xi * ws[i]!) ** 2 * xi);
    const got = await r!.grads[w.name]!.data();
    want.forEach((v, i) => assert.ok(Math.abs(got[i]! - v) <= 1e-6 * (1 + Math.abs(v)), `grad[${i}]: ${got[i]} vs ${v}`));
    assert.ok(Math.abs((await r!.value.data())[0]! - xs.reduce((a, xi, i) => a + (xi * ws[i]!) ** 3, 0)) < 1e-6);
    tf.dispose([r!.value, r!.grads[w.name]!]);
    assert.equal(tf.memory().numTensors, before, 'tensors after backward');
    assert.equal(tf.memory().numBytes, bytesBefore, 'bytes after backward');
    tf.dispose([x, w]);
  });
}
