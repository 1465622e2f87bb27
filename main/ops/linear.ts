// Affine map y = x W^T + b with W stored [out, in] (PyTorch's layout, so state_dict keys load as-is).
// x of any rank is flattened to 2-D first: the gradient of a rank-3 x rank-2 matMul is wrong in
// tfjs 4.22, and wasm matMul is fast only on plain untransposed 2-D operands, so the forward and
// the custom gradient below use explicit transposes and plain 2-D products only.
import * as tf from '@tensorflow/tfjs';

const affine2d = tf.customGrad(((x: tf.Tensor2D, w: tf.Tensor2D, b: tf.Tensor1D, save: tf.GradSaveFunc) => {
  save([x, w]);
  // fused bias add: one kernel, one pass less over the output
  const value = tf.fused.matMul({ a: x, b: tf.transpose(w), bias: b });
  return {
    value,
    gradFunc: (dy: tf.Tensor, saved: tf.Tensor[]) => {
      const [xs, ws] = saved as [tf.Tensor2D, tf.Tensor2D];
      const dy2 = dy as tf.Tensor2D;
      const dyT = tf.transpose(dy2);
      // bias gradient as an innermost-axis sum of the transpose we need anyway (an axis-0 sum
      // transposes internally on wasm)
      return [tf.matMul(dy2, ws), tf.matMul(dyT, xs), tf.sum(dyT, 1)];
    },
  };
}) as unknown as Parameters<typeof tf.customGrad>[0]) as (x: tf.Tensor2D, w: tf.Tensor2D, b: tf.Tensor1D) => tf.Tensor2D;

const linear2d = tf.customGrad(((x: tf.Tensor2D, w: tf.Tensor2D, save: tf.GradSaveFunc) => {
  save([x, w]);
  const value = tf.matMul(x, tf.transpose(w));
  return {
    value,
    gradFunc: (dy: tf.Tensor, saved: tf.Tensor[]) => {
      const [xs, ws] = saved as [tf.Tensor2D, tf.Tensor2D];
      const dy2 = dy as tf.Tensor2D;
      return [tf.matMul(dy2, ws), tf.matMul(tf.transpose(dy2), xs)];
    },
  };
}) as unknown as Parameters<typeof tf.customGrad>[0]) as (x: tf.Tensor2D, w: tf.Tensor2D) => tf.Tensor2D;

/** x: [..., in], weight: [out, in], bias: [out] or undefined -> [..., out]. */
export function linear(x: tf.Tensor, weight: tf.Tensor, bias?: tf.Tensor): tf.Tensor {
  const inDim = weight.shape[1]!;
  const outDim = weight.shape[0]!;
  if (x.shape[x.rank - 1] !== inDim) {
    throw new Error(`linear: input has ${x.shape[x.rank - 1]} features, weight [${weight.shape.join(', ')}] expects ${inDim}`);
  }
  const x2 = x.rank === 2 ? (x as tf.Tensor2D) : tf.reshape(x, [-1, inDim]) as tf.Tensor2D;
  const y2 = bias ? affine2d(x2, weight as tf.Tensor2D, bias as tf.Tensor1D) : linear2d(x2, weight as tf.Tensor2D);
  return x.rank === 2 ? y2 : tf.reshape(y2, [...x.shape.slice(0, -1), outDim]);
}
