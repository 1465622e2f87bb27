// ops/relu-grad.ts and linear.ts's linearRelu: on wasm the ReLU rides in the product's pass (one
// kernel forward) and its gradient is one kernel of our own (instead of tfjs's Relu forward and
// Step, Cast, Multiply backward); value and gradients match the composed relu(linear(.)) on cpu.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as tf from '../../../main/ops/tf';
import '@tensorflow/tfjs-backend-wasm';
import { linear, linearRelu } from '../../../main/ops/linear';
import { reluGrad } from '../../../main/ops/relu-grad';
import { countKernels } from '../../../main/ops/tfjs-internals/count-kernels';

for (const backend of ['wasm', 'cpu']) {
  test(`reluGrad on ${backend}: dy where y > 0, 0 where y is 0, on lengths around the four-wide steps`, async () => {
    assert.ok(await tf.setBackend(backend));
    for (const n of [0, 1, 3, 4, 5, 17, 40001]) {
      const yv = Float32Array.from({ length: n }, (_, i) => (i % 5 === 0 ? 0 : Math.max(0, Math.sin(i * 0.7))));
      const dv = Float32Array.from({ length: n }, (_, i) => Math.cos(i * 0.3) + 0.1);
      const y = tf.tensor1d(yv), dy = tf.tensor1d(dv);
      let got: Float32Array = new Float32Array();
      const counted = await countKernels(async () => { const g = reluGrad(dy, y); got = g.dataSync() as Float32Array; g.dispose(); });
      if (n > 0) assert.equal(counted.byName.get('LinoReluGrad') ?? 0, backend === 'wasm' ? 1 : 0);
      // === : tfjs's multiply gives -0 where dy < 0, ours +0
      for (let i = 0; i < n; i++) assert.ok(got[i] === (yv[i]! > 0 ? dv[i] : 0), `${n} values, [${i}]: ${got[i]}`);
      tf.dispose([y, dy]);
    }
  });
}

/** relu(x W^T + b) and its gradients in x, W, b on the current backend. */
function valueAndGrads(f: typeof linearRelu, xv: tf.Tensor2D, wv: tf.Tensor2D, bv: tf.Tensor1D, up: tf.Tensor2D): Float32Array[] {
  const y = f(xv, wv, bv);
  const g = tf.grads((x: tf.Tensor, w: tf.Tensor, b: tf.Tensor) => tf.sum(tf.mul(f(x, w, b), up)))([xv, wv, bv]);
  const out = [y, ...g].map((t) => t.dataSync() as Float32Array);
  tf.dispose([y, ...g]);
  return out;
}

test('linearRelu on wasm: one product forward, ReluGrad and two products backward, and the values and gradients of relu(linear(.)) on cpu', async () => {
  const [M, K, N] = [37, 20, 13];
  const make = () => [tf.randomUniform([M, K], -1, 1, 'float32', 1), tf.randomUniform([N, K], -1, 1, 'float32', 2),
    tf.randomUniform([N], -1, 1, 'float32', 3), tf.randomUniform([M, N], -1, 1, 'float32', 4)] as [tf.Tensor2D, tf.Tensor2D, tf.Tensor1D, tf.Tensor2D];
  assert.ok(await tf.setBackend('cpu'));
  const onCpu = make();
  const want = valueAndGrads((x, w, b) => tf.relu(linear(x, w, b)), ...onCpu);
  tf.dispose(onCpu);
  assert.ok(await tf.setBackend('wasm'));
  const onWasm = make();
  const [x, w, b, up] = onWasm;
  const forward = await countKernels(async () => { tf.dispose(linearRelu(x, w, b)); });
  assert.deepEqual([...forward.byName], [['LinoMatMulBT', 1]]);
  const backward = await countKernels(async () => {
    tf.dispose(tf.grads((xx: tf.Tensor, ww: tf.Tensor, bb: tf.Tensor) => tf.sum(tf.mul(linearRelu(xx, ww, bb), up)))([x, w, b]));
  });
  for (const k of ['Relu', 'Step']) assert.equal(backward.byName.get(k) ?? 0, 0, k);
  assert.equal(backward.byName.get('LinoReluGrad'), 1);
  const got = valueAndGrads(linearRelu, ...onWasm);
  assert.ok(want[0]!.some((v) => v === 0) && want[0]!.some((v) => v > 0), 'the ReLU clamps some values and passes others');
  ['y', 'dx', 'dW', 'db'].forEach((name, t) => {
    want[t]!.forEach((v, i) => assert.ok(Math.abs(got[t]![i]! - v) <= 1e-5 * (1 + Math.abs(v)), `${name}[${i}]: ${got[t]![i]} vs ${v}`));
  });
  tf.dispose(onWasm);
});
