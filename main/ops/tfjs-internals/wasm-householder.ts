// LiNO's Householder-style row deformation and its gradient (ops/householder.ts) on the wasm backend
// as WebAssembly SIMD of our own (main/ops/wasm/householder.wat) on tfjs's heap (wasm-heap.ts), with
// the cpu kernels' inputs and outputs: h, v, c -> out; g, h, v, c -> dh, dv, p (per-row s t). They
// replace the composed ops wasm ran (53 kernels forward and backward; 1.1 ms at [4096, 32]).
import * as tf from '../tf';
import { householderWasm } from '../wasm/householder-wasm';
import { heapKernels, heapOffset as at, registerHeapKernel } from './wasm-heap';

interface Kernels {
  forward(h: number, v: number, c: number, out: number, R: number, M: number): void;
  backward(g: number, h: number, v: number, c: number, dh: number, dv: number, p: number, R: number, M: number): void;
}
type Info = tf.TensorInfo;

/** The rows and width of h, after checking that the other operands have its shape and c is a scalar. */
function rowsOf(name: string, h: Info, same: Info[], c: Info): [number, number] {
  for (const t of same) {
    if (t.shape.join() !== h.shape.join()) throw new Error(`${name}: operands of one shape expected, got [${h.shape.join(', ')}] and [${t.shape.join(', ')}]`);
  }
  if (c.shape.length !== 0 || h.shape.length === 0) throw new Error(`${name}: expected rows [..., M] and a scalar c, got [${h.shape.join(', ')}] and c [${c.shape.join(', ')}]`);
  const M = h.shape[h.shape.length - 1]!;
  return [M === 0 ? 0 : tf.util.sizeFromShape(h.shape) / M, M];
}

/** Registers `forward` and `backward` on wasm (idempotent). */
export function registerWasmHouseholder(forward: string, backward: string): void {
  registerHeapKernel<{ h: Info; v: Info; c: Info }>(forward, (args) => {
    const { h, v, c } = args.inputs;
    const [R, M] = rowsOf(forward, h, [v], c);
    const be = args.backend;
    const out = be.makeOutput(h.shape.slice(), 'float32');
    heapKernels<Kernels>(be, householderWasm, forward).forward(at(be, h), at(be, v), at(be, c), at(be, out), R, M);
    return out;
  });
  registerHeapKernel<{ g: Info; h: Info; v: Info; c: Info }>(backward, (args) => {
    const { g, h, v, c } = args.inputs;
    const [R, M] = rowsOf(backward, h, [g, v], c);
    const be = args.backend;
    const dh = be.makeOutput(h.shape.slice(), 'float32');
    const dv = be.makeOutput(h.shape.slice(), 'float32');
    const p = be.makeOutput([R], 'float32');
    heapKernels<Kernels>(be, householderWasm, backward).backward(at(be, g), at(be, h), at(be, v), at(be, c), at(be, dh), at(be, dv), at(be, p), R, M);
    return [dh, dv, p];
  });
}
