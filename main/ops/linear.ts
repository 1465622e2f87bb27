// Affine map y = x W^T + b with W stored [out, in] (PyTorch's layout, so state_dict keys load as-is).
// x of any rank is flattened to 2-D first (the model keeps activations 2-D, [B*N, C], so this is
// free there): the gradient of a rank-3 x rank-2 matMul is wrong in tfjs 4.22. Per backend:
// wasm's matMul is fast only on plain untransposed 2-D operands, so there the forward and the
// custom gradient use explicit transposes; elsewhere the transposes ride on the matMul's flags
// (one kernel per product instead of two).
import * as tf from './tf';
import { customGradOp } from './custom-grad';
import { gelu } from './gelu';
import { plainMatMulOnly } from './kernel-registry';
import { gemmAvailable } from './gemm/gemm-kernel';
import { gemmLinear } from './gemm/gemm-linear';
import { matMulTA } from './matmul-ta';
import { matMulAB, matMulABT } from './matmul-ab';
import { reluGrad } from './relu-grad';

/** Backends whose _FusedMatMul kernel takes 2-D operands as they are. */
const DIRECT_FUSED = new Set(['cpu', 'webgpu']);

/**
 * x W^T + b, and with `relu` relu(x W^T + b), wasm only (linearRelu checks): there the ReLU rides
 * in the product's pass and its gradient is one kernel from the saved output (relu-grad.ts) instead
 * of tfjs's Relu, and Step, Cast and Multiply backward.
 */
const affineOf = (relu: boolean) => customGradOp((x: tf.Tensor2D, w: tf.Tensor2D, b: tf.Tensor1D, save: tf.GradSaveFunc) => {
  const plain = plainMatMulOnly();
  if (relu && !plain) throw new Error(`linear: the ReLU inside the product runs on wasm only, not on ${tf.getBackend()}`);
  // fused bias add: one kernel, one pass less over the output
  // on cpu and webgpu the fused kernel itself, on the 2-D operands (checked there): tf.fused.matMul
  // would add three reshapes to 3-D and a customGrad of its own (wasm's kernel needs 3-D operands)
  const value = plain
    ? matMulABT(x, w, b, relu)
    : DIRECT_FUSED.has(tf.getBackend())
      ? (tf.engine().runKernel('_FusedMatMul', { a: x, b: w, bias: b }, { transposeA: false, transposeB: true, activation: 'linear', leakyreluAlpha: 0 }) as tf.Tensor2D)
      : tf.fused.matMul({ a: x, b: w, transposeB: true, bias: b });
  save(relu ? [x, w, value] : [x, w]);
  return {
    value,
    gradFunc: (dy: tf.Tensor, saved: tf.Tensor[]) => {
      const [xs, ws, ys] = saved as [tf.Tensor2D, tf.Tensor2D, tf.Tensor2D?];
      const dy2 = dy as tf.Tensor2D;
      // dX only when asked for (not for a model's input data: custom-grad.ts)
      if (!plain) return [() => tf.matMul(dy2, ws), tf.matMul(dy2, xs, true, false), tf.sum(dy2, 0)];
      const g = ys ? (reluGrad(dy2, ys) as tf.Tensor2D) : dy2;
      // dW = dy^T x and the bias gradient in one kernel of our own (matmul-ta.ts)
      const [dw, db] = matMulTA(g, xs, true);
      return [() => matMulAB(g, ws), dw!, db!];
    },
  };
});
const affine2d = affineOf(false);
const affineRelu2d = affineOf(true);

const linear2d = customGradOp((x: tf.Tensor2D, w: tf.Tensor2D, save: tf.GradSaveFunc) => {
  save([x, w]);
  const plain = plainMatMulOnly();
  const value = plain ? matMulABT(x, w) : tf.matMul(x, w, false, true);
  return {
    value,
    gradFunc: (dy: tf.Tensor, saved: tf.Tensor[]) => {
      const [xs, ws] = saved as [tf.Tensor2D, tf.Tensor2D];
      const dy2 = dy as tf.Tensor2D;
      return [() => (plain ? matMulAB(dy2, ws) : tf.matMul(dy2, ws)), plain ? matMulTA(dy2, xs, false)[0]! : tf.matMul(dy2, xs, true, false)];
    },
  };
});

/** x: [..., in], weight: [out, in], bias: [out] or undefined -> [..., out]. */
export function linear(x: tf.Tensor, weight: tf.Tensor, bias?: tf.Tensor): tf.Tensor {
  return linearOf(x, weight, bias, false);
}

/** relu(linear(x, weight, bias)): on wasm one product that applies the ReLU, and one kernel for its gradient. */
export function linearRelu(x: tf.Tensor, weight: tf.Tensor, bias: tf.Tensor): tf.Tensor {
  if (!plainMatMulOnly()) return tf.relu(linear(x, weight, bias));
  return linearOf(x, weight, bias, false, true);
}

/**
 * linear(gelu(x), weight, bias): on webgpu one GEMM that applies the GELU as it reads x (the
 * activation is never stored, and the gradient's GELU' rides in the dx GEMM's epilogue).
 */
export function geluLinear(x: tf.Tensor, weight: tf.Tensor, bias?: tf.Tensor): tf.Tensor {
  return gemmAvailable() ? linearOf(x, weight, bias, true) : linear(gelu(x), weight, bias);
}

function linearOf(x: tf.Tensor, weight: tf.Tensor, bias: tf.Tensor | undefined, geluIn: boolean, reluOut = false): tf.Tensor {
  const inDim = weight.shape[1]!;
  const outDim = weight.shape[0]!;
  if (x.shape[x.rank - 1] !== inDim) {
    throw new Error(`linear: input has ${x.shape[x.rank - 1]} features, weight [${weight.shape.join(', ')}] expects ${inDim}`);
  }
  const x2 = x.rank === 2 ? (x as tf.Tensor2D) : tf.reshape(x, [-1, inDim]) as tf.Tensor2D;
  // webgpu: the tiled GEMM (main/ops/gemm), whose weight gradient splits its long inner dimension
  const y2 = gemmAvailable() ? gemmLinear(x2, weight as tf.Tensor2D, bias, geluIn)
    : bias ? (reluOut ? affineRelu2d : affine2d)(x2, weight as tf.Tensor2D, bias as tf.Tensor1D) : linear2d(x2, weight as tf.Tensor2D);
  return x.rank === 2 ? y2 : tf.reshape(y2, [...x.shape.slice(0, -1), outDim]);
}
