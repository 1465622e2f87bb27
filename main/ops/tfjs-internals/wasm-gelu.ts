// GELU on the wasm backend as WebAssembly SIMD of our own (main/ops/wasm/gelu.wat) on tfjs's heap
// (wasm-heap.ts): one kernel writes the value and the slope, y = x Phi(x) and d = Phi(x) + x phi(x),
// so the gradient is one multiply. It replaces the composed ops wasm ran (a sigmoid for the
// exponential and ~11 elementwise kernels forward, saving Phi and E, and 4 backward).
import * as tf from '../tf';
import { geluWasm } from '../wasm/gelu-wasm';
import { heapOffset as at, registerHeapKernel } from './wasm-heap';
import { SPLIT_MIN_VALUES, runRows } from './wasm-helper-threads';

type Info = tf.TensorInfo;

/** Registers `name` (x -> y, d) on wasm (idempotent). */
export function registerWasmGeluSlope(name: string): void {
  registerHeapKernel<{ x: Info }>(name, (args) => {
    const { x } = args.inputs;
    const be = args.backend;
    const y = be.makeOutput(x.shape.slice(), 'float32');
    const d = be.makeOutput(x.shape.slice(), 'float32');
    const [px, py, pd, n] = [at(be, x), at(be, y), at(be, d), tf.util.sizeFromShape(x.shape)];
    // elementwise: cut in fours over our helper threads in the threaded build (wasm-helper-threads.ts)
    runRows(be, geluWasm, 'gelu', n, 4, n >= SPLIT_MIN_VALUES, (r0, r1) => [px + 4 * r0, py + 4 * r0, pd + 4 * r0, r1 - r0], name);
    return [y, d];
  });
}
