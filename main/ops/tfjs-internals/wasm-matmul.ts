// Products of our own on the wasm backend (main/ops/wasm/matmul.wat) on tfjs's heap (wasm-heap.ts),
// cut by rows over our helper threads in the threaded build (wasm-helper-threads.ts):
//   LinoMatMul:   a [M, K], b [K, N] (, bias [N]) -> a b (+ bias)      (ops/matmul-ab.ts)
//   LinoMatMulBT: a [M, K], b [N, K] (, bias [N]) -> a b^T (+ bias), then a ReLU when asked (ops/matmul-ab.ts)
//   LinoMatMulTA: a [K, M], b [K, N] -> a^T b (, a's column sums [M])  (ops/matmul-ta.ts)
// For a b N must be a multiple of 8; a b^T and a^T b take any shape: the ops check first (fitsMatMul*).
import * as tf from '../tf';
import { matmulWasm } from '../wasm/matmul-wasm';
import { heapOffset as at, registerHeapKernel, type HeapBackend } from './wasm-heap';
import { helpersRun, runRows } from './wasm-helper-threads';
import { poolTakes } from './wasm-threads';

type Info = tf.TensorInfo;

export const MATMUL = 'LinoMatMul';
export const MATMUL_TA = 'LinoMatMulTA';
export const MATMUL_BT = 'LinoMatMulBT';

/** Whether the kernels take a product with N output columns (and, for a^T b, M output rows). */
export const fitsMatMul = (N: number): boolean => N % 8 === 0;
export const fitsMatMulTA = (M: number, N: number): boolean => M >= 1 && N >= 1;
/** Whether a b^T (b [N, K]) fits its kernel: any N. */
export const fitsMatMulBT = (N: number): boolean => N >= 1;

/**
 * Products of at least this many flops are cut by rows over our helper threads where the threaded
 * build runs (wasm-helper-threads.ts); 0.25, 1 and 4 Mflop measured alike (FNO Darcy 29², DeepONet
 * Darcy 29², FNO at paper size).
 */
export const SPLIT_MIN_FLOPS = 1e6;

/**
 * Whether our kernels take a product of `flops` that fits them: yes unless only tfjs's pool would
 * run it on several threads (the threaded build without our helpers).
 */
export const oursTakes = (flops: number): boolean => !poolTakes(flops) || helpersRun();

/** c = a b (+ bias) on heap offsets (bytes): a [M, K], b [K, N], c [M, N], bias [N] or 0; N as fitsMatMul asks. */
export function matMulOnHeap(be: HeapBackend, a: number, b: number, c: number, M: number, K: number, N: number, bias = 0): void {
  runRows(be, matmulWasm, 'ab', M, 4, 2 * M * K * N >= SPLIT_MIN_FLOPS, (r0, r1) => [a + 4 * r0 * K, b, c + 4 * r0 * N, r1 - r0, K, N, bias]);
}

/** c = a b^T (+ bias) on heap offsets (bytes): a [M, K], b [N, K], c [M, N], bias [N] or 0; then max(c, 0) when relu. */
export function matMulBTOnHeap(be: HeapBackend, a: number, b: number, c: number, M: number, K: number, N: number, bias = 0, relu = false): void {
  runRows(be, matmulWasm, 'abt', M, 4, 2 * M * K * N >= SPLIT_MIN_FLOPS, (r0, r1) => [a + 4 * r0 * K, b, c + 4 * r0 * N, r1 - r0, K, N, bias, relu ? 1 : 0]);
}

/**
 * a^T b is cut in chunks of at least this many of c's rows: every chunk reads all of b, and with
 * 4-row chunks [4096, 32]^T [4096, 32] took 285 us on two threads against 167 us on one.
 */
const ATB_CHUNK_ROWS = 32;

/** c = a^T b on heap offsets (bytes): a [K, M], b [K, N], c [M, N], and a's column sums into s [M] unless s is 0. */
export function matMulTAOnHeap(be: HeapBackend, a: number, b: number, c: number, K: number, M: number, N: number, s = 0): void {
  runRows(be, matmulWasm, 'atb', M, ATB_CHUNK_ROWS, 2 * M * K * N >= SPLIT_MIN_FLOPS, (r0, r1) => [a, b, c, K, M, N, s, r0, r1]);
}

const shapes = (a: Info, b: Info) => `[${a.shape.join(', ')}] and [${b.shape.join(', ')}]`;

/** a b (+ bias) with b [K, N], or a b^T (+ bias, then a ReLU when the attribute relu is 1) with b [N, K] when `bT`: one registration for both. */
function registerProductWithBias(name: string, bT: boolean): void {
  registerHeapKernel<{ a: Info; b: Info; bias?: Info }, { relu?: number }>(name, (args) => {
    const { a, b, bias } = args.inputs;
    const [M, K] = a.shape as [number, number];
    const [bK, N] = (bT ? [b.shape[1], b.shape[0]] : b.shape) as [number, number];
    if (a.shape.length !== 2 || b.shape.length !== 2 || bK !== K || !(bT ? fitsMatMulBT(N) : fitsMatMul(N)) || (bias && bias.shape.join() !== `${N}`)) {
      const want = bT ? 'b [N, K] with N at least 1' : 'b [K, N] with N a multiple of 8';
      throw new Error(`${name}: expected a [M, K], ${want} (and bias [N]), got ${shapes(a, b)}${bias ? ` and bias [${bias.shape.join(', ')}]` : ''}`);
    }
    const be = args.backend;
    const c = be.makeOutput([M, N], 'float32');
    const pBias = bias ? at(be, bias) : 0;
    if (bT) matMulBTOnHeap(be, at(be, a), at(be, b), at(be, c), M, K, N, pBias, args.attrs.relu === 1);
    else matMulOnHeap(be, at(be, a), at(be, b), at(be, c), M, K, N, pBias);
    return c;
  });
}

/** Registers the three kernels on wasm (idempotent). */
export function registerWasmMatMul(): void {
  registerProductWithBias(MATMUL, false);
  registerProductWithBias(MATMUL_BT, true);
  registerHeapKernel<{ a: Info; b: Info }, { sums: boolean }>(MATMUL_TA, (args) => {
    const { a, b } = args.inputs;
    const [K, M] = a.shape as [number, number];
    const N = b.shape[1]!;
    if (a.shape.length !== 2 || b.shape.length !== 2 || b.shape[0] !== K || !fitsMatMulTA(M, N)) {
      throw new Error(`${MATMUL_TA}: expected a [K, M] and b [K, N] with M and N at least 1, got ${shapes(a, b)}`);
    }
    const be = args.backend;
    const c = be.makeOutput([M, N], 'float32');
    const s = args.attrs.sums ? be.makeOutput([M], 'float32') : null;
    matMulTAOnHeap(be, at(be, a), at(be, b), at(be, c), K, M, N, s ? at(be, s) : 0);
    return s ? [c, s] : [c];
  });
}
