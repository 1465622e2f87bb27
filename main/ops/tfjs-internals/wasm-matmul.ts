// Products of our own on the wasm backend (main/ops/wasm/matmul.wat) on tfjs's heap (wasm-heap.ts):
//   LinoMatMul:   a [M, K], b [K, N] (, bias [N]) -> a b (+ bias)      (ops/matmul-ab.ts)
//   LinoMatMulTA: a [K, M], b [K, N] -> a^T b (, a's column sums [M])  (ops/matmul-ta.ts)
// N must be a multiple of 8, and for a^T b M of 4: the ops check first (fitsMatMul*).
import * as tf from '../tf';
import { matmulWasm } from '../wasm/matmul-wasm';
import { heapKernels, heapOffset as at, registerHeapKernel, type HeapBackend } from './wasm-heap';

interface Kernels {
  ab(a: number, b: number, c: number, M: number, K: number, N: number, bias: number): void;
  atb(a: number, b: number, c: number, K: number, M: number, N: number, sums: number): void;
}
type Info = tf.TensorInfo;

export const MATMUL = 'LinoMatMul';
export const MATMUL_TA = 'LinoMatMulTA';

/** Whether the kernels take a product with N output columns (and, for a^T b, M output rows). */
export const fitsMatMul = (N: number): boolean => N % 8 === 0;
export const fitsMatMulTA = (M: number, N: number): boolean => M % 4 === 0 && N % 8 === 0;

/** c = a b on heap offsets (bytes): a [M, K], b [K, N], c [M, N]; N as fitsMatMul asks. */
export function matMulOnHeap(be: HeapBackend, a: number, b: number, c: number, M: number, K: number, N: number): void {
  heapKernels<Kernels>(be, matmulWasm, MATMUL).ab(a, b, c, M, K, N, 0);
}

/** c = a^T b on heap offsets (bytes): a [K, M], b [K, N], c [M, N]; M and N as fitsMatMulTA asks. */
export function matMulTAOnHeap(be: HeapBackend, a: number, b: number, c: number, K: number, M: number, N: number): void {
  heapKernels<Kernels>(be, matmulWasm, MATMUL_TA).atb(a, b, c, K, M, N, 0);
}

const shapes = (a: Info, b: Info) => `[${a.shape.join(', ')}] and [${b.shape.join(', ')}]`;

/** Registers both kernels on wasm (idempotent). */
export function registerWasmMatMul(): void {
  registerHeapKernel<{ a: Info; b: Info; bias?: Info }>(MATMUL, (args) => {
    const { a, b, bias } = args.inputs;
    const [M, K] = a.shape as [number, number];
    const N = b.shape[1]!;
    if (a.shape.length !== 2 || b.shape.length !== 2 || b.shape[0] !== K || !fitsMatMul(N) || (bias && bias.shape.join() !== `${N}`)) {
      throw new Error(`${MATMUL}: expected a [M, K], b [K, N] with N a multiple of 8 (and bias [N]), got ${shapes(a, b)}${bias ? ` and bias [${bias.shape.join(', ')}]` : ''}`);
    }
    const be = args.backend;
    const c = be.makeOutput([M, N], 'float32');
    heapKernels<Kernels>(be, matmulWasm, MATMUL).ab(at(be, a), at(be, b), at(be, c), M, K, N, bias ? at(be, bias) : 0);
    return c;
  });
  registerHeapKernel<{ a: Info; b: Info }, { sums: boolean }>(MATMUL_TA, (args) => {
    const { a, b } = args.inputs;
    const [K, M] = a.shape as [number, number];
    const N = b.shape[1]!;
    if (a.shape.length !== 2 || b.shape.length !== 2 || b.shape[0] !== K || !fitsMatMulTA(M, N)) {
      throw new Error(`${MATMUL_TA}: expected a [K, M] and b [K, N] with M a multiple of 4 and N of 8, got ${shapes(a, b)}`);
    }
    const be = args.backend;
    const c = be.makeOutput([M, N], 'float32');
    const s = args.attrs.sums ? be.makeOutput([M], 'float32') : null;
    heapKernels<Kernels>(be, matmulWasm, MATMUL_TA).atb(at(be, a), at(be, b), at(be, c), K, M, N, s ? at(be, s) : 0);
    return s ? [c, s] : [c];
  });
}
