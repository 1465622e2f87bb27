// The depthwise convolution's kernel gradient (ops/depthwise-conv.ts) on the wasm backend as
// WebAssembly SIMD of our own (main/ops/wasm/depthwise-filter-grad.wat) on tfjs's heap
// (wasm-heap.ts), with the cpu kernel's inputs, attributes and output: x, dy [B, H, W, C] (kh, kw)
// -> dF [kh, kw, C, 1]. It replaces the composed correlation wasm ran (1.4 ms at [4, 32, 32, 32]).
import * as tf from '../tf';
import { depthwiseFilterGradWasm } from '../wasm/depthwise-filter-grad-wasm';
import { heapKernels, heapOffset as at, registerHeapKernel } from './wasm-heap';

interface Kernels {
  filterGrad(x: number, dy: number, df: number, B: number, H: number, W: number, C: number, kh: number, kw: number): void;
}
type Info = tf.TensorInfo;

/** Registers `name` on wasm (idempotent). */
export function registerWasmDepthwiseFilterGrad(name: string): void {
  registerHeapKernel<{ x: Info; dy: Info }, { kh: number; kw: number }>(name, (args) => {
    const { x, dy } = args.inputs;
    const { kh, kw } = args.attrs;
    if (x.shape.length !== 4 || x.shape.join() !== dy.shape.join() || !(kh % 2 === 1 && kw % 2 === 1 && kh > 0 && kw > 0)) {
      throw new Error(`${name}: expected x and dy [B, H, W, C] of one shape and odd kernel sizes, got x [${x.shape.join(', ')}], dy [${dy.shape.join(', ')}], ${kh} x ${kw}`);
    }
    const [B, H, W, C] = x.shape as [number, number, number, number];
    const be = args.backend;
    const df = be.makeOutput([kh, kw, C, 1], 'float32');
    heapKernels<Kernels>(be, depthwiseFilterGradWasm, name).filterGrad(at(be, x), at(be, dy), at(be, df), B, H, W, C, kh, kw);
    return df;
  });
}
