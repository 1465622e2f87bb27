// Batched product a [B, n, k] x b [B, k, m] -> [B, n, m] whose gradient uses explicit transposes
// and plain (untransposed-operand) matMuls only, the fast path of the wasm backend.
import * as tf from '@tensorflow/tfjs';

export function transposeLast(x: tf.Tensor3D): tf.Tensor3D {
  return tf.transpose(x, [0, 2, 1]);
}

export const bmm = tf.customGrad(((a: tf.Tensor3D, b: tf.Tensor3D, save: tf.GradSaveFunc) => {
  save([a, b]);
  return {
    value: tf.matMul(a, b),
    gradFunc: (dy: tf.Tensor, saved: tf.Tensor[]) => {
      const [as, bs] = saved as [tf.Tensor3D, tf.Tensor3D];
      const d = dy as tf.Tensor3D;
      return [tf.matMul(d, transposeLast(bs)), tf.matMul(transposeLast(as), d)];
    },
  };
}) as unknown as Parameters<typeof tf.customGrad>[0]) as (a: tf.Tensor3D, b: tf.Tensor3D) => tf.Tensor3D;
