// GELU, exact erf form as PyTorch's nn.GELU() (tfjs has no GELU op).
import * as tf from '@tensorflow/tfjs';

const SQRT1_2 = Math.SQRT1_2;

export function gelu(x: tf.Tensor): tf.Tensor {
  return tf.tidy(() => tf.mul(tf.mul(x, 0.5), tf.add(tf.erf(tf.mul(x, SQRT1_2)), 1)));
}
