// The sum of squares on the wasm backend as WebAssembly SIMD of our own (main/ops/wasm/sum-squares.wat)
// on tfjs's heap (wasm-heap.ts): x (any shape) -> a scalar, in one pass (tfjs ran a Square and its
// scalar Sum loop).
import * as tf from '../tf';
import { sumSquaresWasm } from '../wasm/sum-squares-wasm';
import { heapKernels, heapOffset as at, registerHeapKernel } from './wasm-heap';

interface Kernels {
  sumsq(x: number, n: number, out: number): void;
}
type Info = tf.TensorInfo;

/** Registers `name` (x -> sum of x^2) on wasm (idempotent). */
export function registerWasmSumSquares(name: string): void {
  registerHeapKernel<{ x: Info }>(name, (args) => {
    const { x } = args.inputs;
    const be = args.backend;
    const out = be.makeOutput([], 'float32');
    heapKernels<Kernels>(be, sumSquaresWasm, name).sumsq(at(be, x), tf.util.sizeFromShape(x.shape), at(be, out));
    return out;
  });
}
