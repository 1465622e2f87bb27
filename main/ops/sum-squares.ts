// The sum of the squares of a tensor's values, a scalar (a flat gradient's squared norm, for
// clipping: train/clip.ts). On wasm one kernel of our own (tfjs-internals/wasm-sum-squares.ts);
// elsewhere Square and Sum. Float32 throughout, summed in sixteen running sums on wasm, sequentially
// by tfjs elsewhere: the two differ in the last bits. No gradient: it is not used under a tape.
import * as tf from './tf';
import { hasFusedKernel, runFused } from './kernel-registry';
import { registerWasmSumSquares } from './tfjs-internals/wasm-sum-squares';

const NAME = 'LinoSumSquares';
registerWasmSumSquares(NAME);

export function sumSquares(x: tf.Tensor): tf.Scalar {
  if (hasFusedKernel(NAME) && x.dtype === 'float32') return runFused(NAME, { x })[0] as tf.Scalar;
  return tf.tidy(() => tf.sum(tf.square(x)) as tf.Scalar);
}
