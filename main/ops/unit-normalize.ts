// v / max(||v||_2, eps) over the last axis (torch.nn.functional.normalize, eps 1e-6).
import * as tf from './tf';
import { rowSquaredNorm } from './row-dot';

export function unitNormalize(v: tf.Tensor, eps = 1e-6): tf.Tensor {
  const norm = tf.sqrt(rowSquaredNorm(v));
  return tf.div(v, tf.maximum(norm, eps));
}
