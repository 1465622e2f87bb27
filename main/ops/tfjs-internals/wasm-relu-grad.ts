// A ReLU layer's gradient on the wasm backend as WebAssembly SIMD of our own
// (main/ops/wasm/relu-grad.wat) on tfjs's heap (wasm-heap.ts): dy, y -> dy where y > 0, else 0, in
// one pass (tfjs's Relu gradient is Step, Cast and Multiply).
import * as tf from '../tf';
import { reluGradWasm } from '../wasm/relu-grad-wasm';
import { heapOffset as at, registerHeapKernel } from './wasm-heap';
import { SPLIT_MIN_VALUES, runRows } from './wasm-helper-threads';

type Info = tf.TensorInfo;

/** Registers `name` (dy, y -> g) on wasm (idempotent). */
export function registerWasmReluGrad(name: string): void {
  registerHeapKernel<{ dy: Info; y: Info }>(name, (args) => {
    const { dy, y } = args.inputs;
    if (dy.shape.join() !== y.shape.join() || dy.dtype !== 'float32' || y.dtype !== 'float32') {
      throw new Error(`${name}: expected dy and y of one shape, float32, got [${dy.shape.join(', ')}] ${dy.dtype} and [${y.shape.join(', ')}] ${y.dtype}`);
    }
    const be = args.backend;
    const g = be.makeOutput(dy.shape.slice(), 'float32');
    const [pdy, py, pg, n] = [at(be, dy), at(be, y), at(be, g), tf.util.sizeFromShape(dy.shape)];
    // elementwise: cut in fours over our helper threads in the threaded build (wasm-helper-threads.ts)
    runRows(be, reluGradWasm, 'relu_grad', n, 4, n >= SPLIT_MIN_VALUES, (r0, r1) => [pdy + 4 * r0, py + 4 * r0, pg + 4 * r0, r1 - r0], name);
    return g;
  });
}
