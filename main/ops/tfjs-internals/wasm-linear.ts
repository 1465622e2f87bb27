// The affine map y = x W^T + b (ops/linear.ts) and its gradient as one wasm kernel each. wasm's
// matMul is fast (XNNPACK) only on untransposed 2-D operands, so in tf ops the forward was a
// Transpose of W, three Reshapes and a _FusedMatMul, and the gradient a Transpose of dy, two
// products and a Sum: about ten kernels an affine map, each with the engine's bookkeeping (a
// DeepONet step is 273 kernels, 16 of them affine maps). Here the same backend functions run
// inside one kernel: the fast Transpose, the backend's BatchMatMul/_FusedMatMul kernels on 3-D
// views of the same buffers, and the bias gradient as an innermost-axis Sum of dy^T.
import * as tf from '../tf';
import type { TransposeFn } from './wasm-sample-matmul';

export const LINEAR = 'LinoLinear';
export const LINEAR_GRAD = 'LinoLinearGrad';

type Info = tf.TensorInfo;
type Backend = { disposeData(d: object): void };
type Kernel = (args: { inputs: Record<string, Info>; backend: Backend; attrs: Record<string, unknown> }) => Info;

const as3d = (t: Info): Info => ({ dataId: t.dataId, shape: [1, ...t.shape], dtype: t.dtype });
const as2d = (t: Info): Info => ({ dataId: t.dataId, shape: t.shape.slice(1), dtype: t.dtype });
const PLAIN = { transposeA: false, transposeB: false };

function checkFloat2d(name: string, ts: Info[]): void {
  for (const t of ts) {
    if (t.dtype !== 'float32' || t.shape.length !== 2) throw new Error(`${name}: expected 2-D float32 operands, got [${t.shape.join(', ')}] ${t.dtype}`);
  }
}

/** Registers both kernels on wasm (idempotent); `transpose` is the fast wasm Transpose. */
export function registerLinear(transpose: TransposeFn): void {
  if (tf.getKernel(LINEAR, 'wasm')) return;
  const fused = tf.getKernel('_FusedMatMul', 'wasm')?.kernelFunc as Kernel | undefined;
  const matMul = tf.getKernel('BatchMatMul', 'wasm')?.kernelFunc as Kernel | undefined;
  const sum = tf.getKernel('Sum', 'wasm')?.kernelFunc as Kernel | undefined;
  if (!fused || !matMul || !sum) return;
  // y = x W^T (+ b): inputs x [R, in], w [out, in], optional bias [out]
  tf.registerKernel({
    kernelName: LINEAR, backendName: 'wasm',
    kernelFunc: ((args: { inputs: { x: Info; w: Info; bias?: Info }; backend: Backend }) => {
      const { x, w, bias } = args.inputs;
      const be = args.backend;
      checkFloat2d(LINEAR, [x, w]);
      const wt = transpose(w, [1, 0], be as never);
      const y = bias
        ? fused({ inputs: { a: as3d(x), b: as3d(wt), bias }, backend: be, attrs: { ...PLAIN, activation: 'linear', leakyreluAlpha: 0 } })
        : matMul({ inputs: { a: as3d(x), b: as3d(wt) }, backend: be, attrs: PLAIN });
      be.disposeData(wt.dataId);
      return as2d(y);
    }) as never,
  });
  // dx = dy W, dW = dy^T x, db = the row sums of dy^T (attr bias: 1 to return it): inputs dy [R, out], x [R, in], w [out, in]
  tf.registerKernel({
    kernelName: LINEAR_GRAD, backendName: 'wasm',
    kernelFunc: ((args: { inputs: { dy: Info; x: Info; w: Info }; backend: Backend; attrs: { bias: number } }) => {
      const { dy, x, w } = args.inputs;
      const be = args.backend;
      checkFloat2d(LINEAR_GRAD, [dy, x, w]);
      const dx = matMul({ inputs: { a: dy, b: w }, backend: be, attrs: PLAIN });
      const dyT = transpose(dy, [1, 0], be as never);
      const dw = matMul({ inputs: { a: dyT, b: x }, backend: be, attrs: PLAIN });
      const db = args.attrs.bias ? sum({ inputs: { x: dyT }, backend: be, attrs: { axis: [1], keepDims: false } }) : null;
      be.disposeData(dyT.dataId);
      return db ? [dx, dw, db] : [dx, dw];
    }) as never,
  });
}
