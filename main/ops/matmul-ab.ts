// a b (+ bias) for row-major a [M, K] and b [K, N] (an affine map's forward with b = W^T, and its
// input gradient with b = W). On wasm, when N is a multiple of 8, one kernel of our own
// (tfjs-internals/wasm-matmul.ts), unless the threaded build's pool takes a product that big;
// otherwise tfjs's product (fused with the bias when given).
// No gradient of its own: linear.ts uses it inside its custom gradients.
import * as tf from './tf';
import { hasFusedKernel, runFused } from './kernel-registry';
import { MATMUL, fitsMatMul, oursTakes, registerWasmMatMul } from './tfjs-internals/wasm-matmul';

registerWasmMatMul();

export function matMulAB(a: tf.Tensor2D, b: tf.Tensor2D, bias?: tf.Tensor1D): tf.Tensor2D {
  if (a.shape[1] !== b.shape[0]) throw new Error(`matMulAB: a [${a.shape.join(', ')}] and b [${b.shape.join(', ')}] differ in the inner size`);
  if (hasFusedKernel(MATMUL) && fitsMatMul(b.shape[1]) && oursTakes(2 * a.shape[0] * a.shape[1] * b.shape[1])) return runFused(MATMUL, bias ? { a, b, bias } : { a, b })[0] as tf.Tensor2D;
  return (bias ? tf.fused.matMul({ a, b, bias }) : tf.matMul(a, b)) as tf.Tensor2D;
}
