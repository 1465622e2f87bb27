// <a, b> over the last axis, keeping it: [..., M] x [..., M] -> [..., 1]. Custom gradient
// (dy * b, dy * a) by broadcasting multiply: tfjs's Sum gradient builds a full-size tensor of
// ones in JS and uploads it on every call. Operands must have the same shape (no broadcasting).
import * as tf from './tf';
import { customGradOp } from './custom-grad';

const rowDotOp = customGradOp((a: tf.Tensor, b: tf.Tensor, save: tf.GradSaveFunc) => {
  save([a, b]);
  return {
    value: tf.sum(tf.mul(a, b), -1, true),
    gradFunc: (dy: tf.Tensor, saved: tf.Tensor[]) => {
      const [as, bs] = saved as [tf.Tensor, tf.Tensor];
      return [tf.mul(dy, bs), tf.mul(dy, as)];
    },
  };
});

export function rowDot(a: tf.Tensor, b: tf.Tensor): tf.Tensor {
  if (a.shape.join() !== b.shape.join()) throw new Error(`rowDot: shapes [${a.shape.join(', ')}] and [${b.shape.join(', ')}] differ`);
  return rowDotOp(a, b);
}

/** ||x||^2 over the last axis, keeping it; gradient 2 dy x. */
export const rowSquaredNorm = customGradOp((x: tf.Tensor, save: tf.GradSaveFunc) => {
  save([x]);
  return {
    value: tf.sum(tf.square(x), -1, true),
    gradFunc: (dy: tf.Tensor, saved: tf.Tensor[]) => [tf.mul(tf.mul(dy, 2), saved[0]!)],
  };
});
