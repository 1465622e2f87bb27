// a b (+ bias) for row-major a [M, K] and b [K, N] (an affine map's input gradient with b = W), and
// a b^T (+ bias, then optionally a ReLU) for b [N, K] (its forward with b = W as it lies). On wasm,
// one kernel of our own each (tfjs-internals/wasm-matmul.ts) where the shape fits it (a b: N a
// multiple of 8; a b^T: any), unless only the threaded build's pool would take a product that big;
// otherwise tfjs's product (fused with the bias when given), after a transpose for a b^T.
// No gradient of its own: linear.ts uses it inside its custom gradients.
import * as tf from './tf';
import { hasFusedKernel, runFused } from './kernel-registry';
import { MATMUL, MATMUL_BT, fitsMatMul, fitsMatMulBT, oursTakes, registerWasmMatMul } from './tfjs-internals/wasm-matmul';

registerWasmMatMul();

export function matMulAB(a: tf.Tensor2D, b: tf.Tensor2D, bias?: tf.Tensor1D): tf.Tensor2D {
  if (a.shape[1] !== b.shape[0]) throw new Error(`matMulAB: a [${a.shape.join(', ')}] and b [${b.shape.join(', ')}] differ in the inner size`);
  if (hasFusedKernel(MATMUL) && fitsMatMul(b.shape[1]) && oursTakes(2 * a.shape[0] * a.shape[1] * b.shape[1])) return runFused(MATMUL, bias ? { a, b, bias } : { a, b })[0] as tf.Tensor2D;
  return (bias ? tf.fused.matMul({ a, b, bias }) : tf.matMul(a, b)) as tf.Tensor2D;
}

/** a b^T (+ bias) for a [M, K] and b [N, K]; relu(a b^T (+ bias)) when `relu`. */
export function matMulABT(a: tf.Tensor2D, b: tf.Tensor2D, bias?: tf.Tensor1D, relu = false): tf.Tensor2D {
  if (a.shape[1] !== b.shape[1]) throw new Error(`matMulABT: a [${a.shape.join(', ')}] and b [${b.shape.join(', ')}] differ in the inner size`);
  if (hasFusedKernel(MATMUL_BT) && fitsMatMulBT(b.shape[0]) && oursTakes(2 * a.shape[0] * a.shape[1] * b.shape[0])) {
    return runFused(MATMUL_BT, bias ? { a, b, bias } : { a, b }, { relu: relu ? 1 : 0 })[0] as tf.Tensor2D;
  }
  return tf.tidy(() => {
    const y = matMulAB(a, tf.transpose(b), bias);
    return relu ? tf.relu(y) : y;
  });
}
