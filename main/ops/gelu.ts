// GELU, exact erf form as PyTorch's nn.GELU() (tfjs has no GELU op). Custom gradient
// dy * (Phi(x) + x phi(x)) reusing the forward's Phi: fewer full-size passes than autodiff
// through erf (which also inserts casts and copies on wasm).
import * as tf from '@tensorflow/tfjs';

const SQRT1_2 = Math.SQRT1_2;
const LOG_SQRT_2PI = 0.5 * Math.log(2 * Math.PI);

export const gelu = tf.customGrad(((x: tf.Tensor, save: tf.GradSaveFunc) => {
  const cdf = tf.mul(tf.add(tf.erf(tf.mul(x, SQRT1_2)), 1), 0.5);
  save([x, cdf]);
  return {
    value: tf.mul(x, cdf),
    gradFunc: (dy: tf.Tensor, saved: tf.Tensor[]) => {
      const [xs, c] = saved as [tf.Tensor, tf.Tensor];
      const pdf = tf.exp(tf.sub(tf.mul(tf.square(xs), -0.5), LOG_SQRT_2PI));
      return [tf.mul(dy, tf.add(c, tf.mul(xs, pdf)))];
    },
  };
}) as unknown as Parameters<typeof tf.customGrad>[0]) as (x: tf.Tensor) => tf.Tensor;
