// Linear layers through the tiled GEMM (webgpu): y = op(x) W^T (+ b), W stored [out, in], with
// op = identity (affine) or GELU (the second layer of a Linear -> GELU -> Linear pair, the GELU
// read in the GEMM's prologue so the activation is never stored). Gradients, all GEMMs too:
//   dx = dy W (times GELU'(x) in the epilogue when op is GELU),
//   dW = dy^T op(x) (split over the rows: its inner dimension is B*N),
//   db = sum of dy over the rows.
import * as tf from '../tf';
import { customGradOp } from '../custom-grad';
import { gemm } from './gemm-kernel';

/** dx and dW of y = op(x) W^T. */
function grads(d: tf.Tensor2D, xs: tf.Tensor2D, ws: tf.Tensor2D, geluIn: boolean): [tf.Tensor2D, tf.Tensor2D] {
  return [gemm(d, ws, geluIn ? { geluGradOf: xs } : {}), gemm(d, xs, { transA: true, geluB: geluIn })];
}

function withBias(geluIn: boolean) {
  return customGradOp((x: tf.Tensor2D, w: tf.Tensor2D, b: tf.Tensor1D, save: tf.GradSaveFunc) => {
    save([x, w]);
    return {
      value: gemm(x, w, { transB: true, geluA: geluIn, bias: b }),
      gradFunc: (dy: tf.Tensor, saved: tf.Tensor[]) => [...grads(dy as tf.Tensor2D, saved[0] as tf.Tensor2D, saved[1] as tf.Tensor2D, geluIn), tf.sum(dy, 0)],
    };
  });
}

function noBias(geluIn: boolean) {
  return customGradOp((x: tf.Tensor2D, w: tf.Tensor2D, save: tf.GradSaveFunc) => {
    save([x, w]);
    return {
      value: gemm(x, w, { transB: true, geluA: geluIn }),
      gradFunc: (dy: tf.Tensor, saved: tf.Tensor[]) => grads(dy as tf.Tensor2D, saved[0] as tf.Tensor2D, saved[1] as tf.Tensor2D, geluIn),
    };
  });
}

const ops = { affine: withBias(false), plain: noBias(false), geluAffine: withBias(true), geluPlain: noBias(true) };

/** op(x) W^T (+ b): x [R, in], w [out, in], b [out] -> [R, out]; op = GELU when `geluIn`. */
export function gemmLinear(x: tf.Tensor2D, w: tf.Tensor2D, b: tf.Tensor | undefined, geluIn = false): tf.Tensor2D {
  if (b) return (geluIn ? ops.geluAffine : ops.affine)(x, w, b as tf.Tensor1D);
  return (geluIn ? ops.geluPlain : ops.plain)(x, w);
}
