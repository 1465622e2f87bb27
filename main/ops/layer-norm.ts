// LayerNorm over the last axis: biased variance, eps 1e-5, learnable scale and shift (nn.LayerNorm).
// Custom gradient (the standard closed form) on 2-D views: autodiff through mean/variance costs
// about twice the full-size passes, and the scale/shift gradients are column sums, done as a
// plain 2-D matMul with a row of ones (an axis-0 sum transposes internally on wasm).
import * as tf from '@tensorflow/tfjs';

const ln2d = tf.customGrad(((x: tf.Tensor2D, w: tf.Tensor1D, b: tf.Tensor1D, save: tf.GradSaveFunc) => {
  const eps = 1e-5;
  const xc = tf.sub(x, tf.mean(x, 1, true));
  const rstd = tf.rsqrt(tf.add(tf.mean(tf.square(xc), 1, true), eps));
  const xhat = tf.mul(xc, rstd);
  save([xhat, rstd, w]);
  return {
    value: tf.add(tf.mul(xhat, w), b),
    gradFunc: (dy: tf.Tensor, saved: tf.Tensor[]) => {
      const [xh, rs, ws] = saved as [tf.Tensor2D, tf.Tensor2D, tf.Tensor1D];
      const d = dy as tf.Tensor2D;
      const n = d.shape[0];
      const g = tf.mul(d, ws);
      const dx = tf.mul(tf.sub(tf.sub(g, tf.mean(g, 1, true)), tf.mul(xh, tf.mean(tf.mul(g, xh), 1, true))), rs);
      const ones = tf.ones([1, n]) as tf.Tensor2D;
      const dw = tf.reshape(tf.matMul(ones, tf.mul(d, xh)), [-1]);
      const db = tf.reshape(tf.matMul(ones, d), [-1]);
      return [dx, dw, db];
    },
  };
}) as unknown as Parameters<typeof tf.customGrad>[0]) as (x: tf.Tensor2D, w: tf.Tensor1D, b: tf.Tensor1D) => tf.Tensor2D;

export function layerNorm(x: tf.Tensor, weight: tf.Tensor, bias: tf.Tensor): tf.Tensor {
  const M = x.shape[x.rank - 1]!;
  const y = ln2d(tf.reshape(x, [-1, M]) as tf.Tensor2D, weight as tf.Tensor1D, bias as tf.Tensor1D);
  return tf.reshape(y, x.shape);
}
