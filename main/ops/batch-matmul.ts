// Batched product op(a) [B, n, k] x op(b) [B, k, m] -> [B, n, m], op = optional transpose of the
// last two axes. Per backend: the wasm backend's batched matMul is ~10x slower than its plain
// 2-D one (measured: [4,1024,32]x[4,32,32] 3.5 ms vs 4 x 0.3 ms), so there the forward and the
// gradient run one kernel that splits the batch into plain untransposed 2-D products inside the
// heap (tfjs-internals/wasm-sample-matmul.ts); elsewhere each product is one batched matMul with
// the transposes on its flags.
import * as tf from './tf';
import { customGradOp } from './custom-grad';
import { plainMatMulOnly } from './kernel-registry';
import { gemm, gemmAvailable } from './gemm/gemm-kernel';
import { ensureFastWasmKernels } from './tfjs-internals/wasm-kernels';
import { SAMPLE_MATMUL } from './tfjs-internals/wasm-sample-matmul';

export function transposeLast(x: tf.Tensor3D): tf.Tensor3D {
  return tf.transpose(x, [0, 2, 1]);
}

function product(a: tf.Tensor3D, b: tf.Tensor3D, ta: boolean, tb: boolean): tf.Tensor3D {
  // webgpu: the tiled GEMM, batched over z (split over K where K = N, e.g. phi(k)^T z)
  if (gemmAvailable()) return gemm(a, b, { transA: ta, transB: tb });
  if (!plainMatMulOnly()) return tf.matMul(a, b, ta, tb);
  ensureFastWasmKernels();
  return tf.engine().runKernel(SAMPLE_MATMUL, { a, b }, { transposeA: ta, transposeB: tb }) as tf.Tensor3D;
}

function makeBmm(ta: boolean, tb: boolean) {
  return customGradOp((a: tf.Tensor3D, b: tf.Tensor3D, save: tf.GradSaveFunc) => {
    save([a, b]);
    return {
      value: product(a, b, ta, tb),
      gradFunc: (dy: tf.Tensor, saved: tf.Tensor[]) => {
        const [as, bs] = saved as [tf.Tensor3D, tf.Tensor3D];
        const d = dy as tf.Tensor3D;
        if (ta) return [product(bs, d, false, true), product(as, d, false, false)]; // C = A^T B
        if (tb) return [product(d, bs, false, false), product(d, as, true, false)]; // C = A B^T
        return [product(d, bs, false, true), product(as, d, true, false)];
      },
    };
  });
}

const plainBmm = makeBmm(false, false);
const bmmTa = makeBmm(true, false);
const bmmTb = makeBmm(false, true);

/** op(a) x op(b) per sample; transposeA and transposeB together are not supported. */
export function bmm(a: tf.Tensor3D, b: tf.Tensor3D, transposeA = false, transposeB = false): tf.Tensor3D {
  if (transposeA && transposeB) throw new Error('bmm: transposeA and transposeB together are not supported');
  return transposeA ? bmmTa(a, b) : transposeB ? bmmTb(a, b) : plainBmm(a, b);
}
