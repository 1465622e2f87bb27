// LayerNorm over the last axis: biased variance, eps 1e-5, learnable scale and shift (nn.LayerNorm).
import * as tf from '@tensorflow/tfjs';

export function layerNorm(x: tf.Tensor, weight: tf.Tensor, bias: tf.Tensor, eps = 1e-5): tf.Tensor {
  const axis = x.rank - 1;
  const xc = tf.sub(x, tf.mean(x, axis, true));
  const variance = tf.mean(tf.square(xc), axis, true);
  return tf.add(tf.mul(tf.mul(xc, tf.rsqrt(tf.add(variance, eps))), weight), bias);
}
