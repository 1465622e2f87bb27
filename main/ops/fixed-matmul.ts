// x @ M for a constant matrix M (FNO's DFT bases) whose transpose is kept too: the gradient is
// dy @ M^T as a plain product, where tf.matMul's own gradient multiplies by M with transposeB,
// which wasm runs ~4x slower than a plain one (measured on [10880, 24] x [85, 24]^T), and it
// computes no gradient for M.
import * as tf from './tf';

/** The product with a fixed [k, n] matrix `m`, given also as `mT` [n, k]: x [rows, k] -> [rows, n]. */
export function fixedMatMul(m: tf.Tensor2D, mT: tf.Tensor2D): (x: tf.Tensor2D) => tf.Tensor2D {
  const [k, n] = m.shape;
  if (mT.shape[0] !== n || mT.shape[1] !== k) throw new Error(`fixedMatMul: expected the transpose [${n}, ${k}] of [${k}, ${n}], got [${mT.shape.join(', ')}]`);
  return tf.customGrad((x: tf.Tensor | tf.GradSaveFunc) => ({
    value: tf.matMul(x as tf.Tensor2D, m),
    gradFunc: (dy: tf.Tensor) => tf.matMul(dy as tf.Tensor2D, mT),
  })) as (x: tf.Tensor2D) => tf.Tensor2D;
}
