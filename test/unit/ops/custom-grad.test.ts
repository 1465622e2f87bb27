// ops/custom-grad.ts: an op's gradients come out as tfjs's customGrad gave them, and a gradient
// given as a function is computed only when the engine asks for it (an affine map's input
// gradient is not computed for a model's input data).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as tf from '../../../main/ops/tf';
import '@tensorflow/tfjs-backend-wasm';
import { customGradOp } from '../../../main/ops/custom-grad';
import { linear } from '../../../main/ops/linear';
import { countKernels } from '../../../main/ops/tfjs-internals/count-kernels';

let asked = 0;
const scaledSum = customGradOp((a: tf.Tensor, b: tf.Tensor, save: tf.GradSaveFunc) => {
  save([a, b]);
  return {
    value: tf.add(tf.mul(a, 2), tf.mul(b, 3)),
    gradFunc: (dy: tf.Tensor) => [() => { asked++; return tf.mul(dy, 2); }, tf.mul(dy, 3)],
  };
});

test('a gradient given as a function is called only for an input the engine differentiates', async () => {
  assert.ok(await tf.setBackend('cpu'));
  const a = tf.tensor1d([1, 2]), b = tf.tensor1d([3, 4]);
  asked = 0;
  const [ga, gb] = tf.grads((x: tf.Tensor, y: tf.Tensor) => tf.sum(scaledSum(x, y)))([a, b]);
  assert.deepEqual(Array.from(ga!.dataSync()), [2, 2]);
  assert.deepEqual(Array.from(gb!.dataSync()), [3, 3]);
  assert.equal(asked, 1);
  asked = 0;
  const [onlyB] = tf.grads((y: tf.Tensor) => tf.sum(scaledSum(a, y)))([b]);
  assert.deepEqual(Array.from(onlyB!.dataSync()), [3, 3]);
  assert.equal(asked, 0, 'the gradient of a, a constant here, was never computed');
});

test('customGradOp refuses a gradient count that differs from the inputs', async () => {
  assert.ok(await tf.setBackend('cpu'));
  const bad = customGradOp((x: tf.Tensor, save: tf.GradSaveFunc) => { save([]); return { value: tf.mul(x, 1), gradFunc: (dy: tf.Tensor) => [dy, dy] }; });
  assert.throws(() => tf.grad((x: tf.Tensor) => tf.sum(bad(x)))(tf.scalar(1)), /customGradOp: the gradient function gave 2 gradients for 1 inputs/);
});

test('on wasm, a step of an affine map of input data computes its weight and bias gradients, not the data\'s', async () => {
  assert.ok(await tf.setBackend('wasm'));
  const x = tf.randomUniform([64, 16], -1, 1, 'float32', 1);
  const w = tf.variable(tf.randomUniform([16, 16], -1, 1, 'float32', 2));
  const b = tf.variable(tf.zeros([16]));
  let grads: tf.NamedTensorMap = {};
  const counted = await countKernels(async () => { grads = tf.variableGrads(() => tf.sum(tf.square(linear(x, w, b))) as tf.Scalar, [w, b]).grads; });
  assert.equal(counted.byName.get('LinoMatMul') ?? 0, 0, 'no dX = dy W product');
  assert.equal(counted.byName.get('LinoMatMulTA'), 1, 'dW and db in one product');
  assert.deepEqual(grads[w.name]!.shape, [16, 16]);
  // and where the input is differentiated, its gradient is there and right
  const gx = tf.grad((v: tf.Tensor) => tf.sum(linear(v, w, b)))(x);
  const want = tf.matMul(tf.ones([64, 16]), w);
  assert.ok(tf.max(tf.abs(tf.sub(gx, want))).dataSync()[0]! < 1e-5);
  tf.dispose([x, w, b, gx, want, ...Object.values(grads)]);
});
