// A^T B on the wasm backend as WebAssembly SIMD of our own (main/ops/wasm/matmul-ta.wat) on tfjs's
// heap (wasm-heap.ts): a [K, M], b [K, N] -> [M, N], and with `sums` also a's column sums [M].
// For ops/matmul-ta.ts, which checks that M is a multiple of 4 and N of 8 first.
import * as tf from '../tf';
import { matmulTaWasm } from '../wasm/matmul-ta-wasm';
import { checkFloat, heapKernels, heapOffset as at, type HeapBackend } from './wasm-heap';

interface Kernels {
  atb(a: number, b: number, c: number, K: number, M: number, N: number, sums: number): void;
}
type Info = tf.TensorInfo;

export const MATMUL_TA = 'LinoMatMulTA';

/** Whether the kernel takes a [K, M]^T [K, N]. */
export const fitsMatMulTA = (M: number, N: number): boolean => M % 4 === 0 && N % 8 === 0;

/** c = a^T b on heap offsets (bytes): a [K, M], b [K, N], c [M, N]; M and N as fitsMatMulTA asks. */
export function matMulTAOnHeap(be: HeapBackend, a: number, b: number, c: number, K: number, M: number, N: number): void {
  heapKernels<Kernels>(be, matmulTaWasm, MATMUL_TA).atb(a, b, c, K, M, N, 0);
}

/** Registers the kernel on wasm (idempotent). */
export function registerWasmMatMulTA(): void {
  if (tf.getKernel(MATMUL_TA, 'wasm')) return;
  tf.registerKernel({
    kernelName: MATMUL_TA, backendName: 'wasm',
    kernelFunc: ((args: { inputs: { a: Info; b: Info }; backend: HeapBackend; attrs: { sums: boolean } }) => {
      const { a, b } = args.inputs;
      checkFloat(MATMUL_TA, [a, b]);
      const [K, M] = a.shape as [number, number];
      const N = b.shape[1]!;
      if (a.shape.length !== 2 || b.shape.length !== 2 || b.shape[0] !== K || !fitsMatMulTA(M, N)) {
        throw new Error(`${MATMUL_TA}: expected a [K, M] and b [K, N] with M a multiple of 4 and N of 8, got [${a.shape.join(', ')}] and [${b.shape.join(', ')}]`);
      }
      const be = args.backend;
      const c = be.makeOutput([M, N], 'float32');
      const s = args.attrs.sums ? be.makeOutput([M], 'float32') : null;
      heapKernels<Kernels>(be, matmulTaWasm, MATMUL_TA).atb(at(be, a), at(be, b), at(be, c), K, M, N, s ? at(be, s) : 0);
      return s ? [c, s] : [c];
    }) as never,
  });
}
