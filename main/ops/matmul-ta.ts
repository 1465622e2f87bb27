// a^T b for two row-major matrices that share their long side, a [K, M] and b [K, N] -> [M, N]
// (an affine map's weight gradient dy^T x), and optionally a's column sums (its bias gradient). On
// wasm one kernel of our own that reads both as they lie (tfjs-internals/wasm-matmul.ts), unless
// the threaded build's pool takes a product that big; otherwise the transpose and tfjs's product and sum.
// No gradient of its own: it is used inside gradients.
import * as tf from './tf';
import { hasFusedKernel, runFused } from './kernel-registry';
import { MATMUL_TA, fitsMatMulTA, oursTakes, registerWasmMatMul } from './tfjs-internals/wasm-matmul';

registerWasmMatMul();

/** [a^T b] or [a^T b, sum of a's rows]. */
export function matMulTA(a: tf.Tensor2D, b: tf.Tensor2D, sums: boolean): tf.Tensor[] {
  const [K, M] = a.shape;
  const N = b.shape[1];
  if (b.shape[0] !== K) throw new Error(`matMulTA: a [${a.shape.join(', ')}] and b [${b.shape.join(', ')}] differ in rows`);
  if (hasFusedKernel(MATMUL_TA) && fitsMatMulTA(M, N) && oursTakes(2 * K * M * N)) return runFused(MATMUL_TA, { a, b }, { sums: sums ? 1 : 0 });
  const aT = tf.transpose(a);
  // the bias gradient as an innermost-axis sum of the transpose made anyway
  return sums ? [tf.matMul(aT, b), tf.sum(aT, 1)] : [tf.matMul(aT, b)];
}
