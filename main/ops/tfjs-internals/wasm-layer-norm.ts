// LayerNorm and its gradient (ops/layer-norm.ts) on the wasm backend as WebAssembly SIMD of our own
// (main/ops/wasm/layer-norm.wat) on tfjs's heap (wasm-heap.ts), with the cpu kernels' inputs and
// outputs: x, w, b -> y, stats [R, 2]; dy, x, w, stats -> dx, dw, db. They replace the composed ops
// wasm ran (24 kernels forward and backward; 1.7 ms at [4096, 32]).
import * as tf from '../tf';
import { layerNormWasm } from '../wasm/layer-norm-wasm';
import { heapKernels, heapOffset as at, registerHeapKernel } from './wasm-heap';
import { SPLIT_MIN_VALUES, runRows } from './wasm-helper-threads';

interface Kernels {
  forward(x: number, w: number, b: number, y: number, stats: number, R: number, M: number): void;
  backward(dy: number, x: number, w: number, stats: number, dx: number, dw: number, db: number, R: number, M: number): void;
}
type Info = tf.TensorInfo;

/** x's [R, M], after checking every operand's shape against it (dy [R, M], w and b [M], stats [R, 2]). */
function rowsOf(name: string, x: Info, operands: Record<string, Info | undefined>): [number, number] {
  const [R, M] = x.shape as [number, number];
  const want: Record<string, number[]> = { dy: [R, M], w: [M], b: [M], stats: [R, 2] };
  for (const [k, t] of Object.entries(operands)) {
    if (x.shape.length !== 2 || (t && t.shape.join() !== want[k]!.join())) {
      throw new Error(`${name}: expected x [R, M], w and b [M], dy [R, M] and stats [R, 2]; got x [${x.shape.join(', ')}] and ${k} [${t?.shape.join(', ')}]`);
    }
  }
  return [R, M];
}

/** Registers `forward` and `backward` on wasm (idempotent). */
export function registerWasmLayerNorm(forward: string, backward: string): void {
  registerHeapKernel<{ x: Info; w: Info; b: Info }>(forward, (args) => {
    const { x, w, b } = args.inputs;
    const [R, M] = rowsOf(forward, x, { w, b });
    const be = args.backend;
    const y = be.makeOutput([R, M], 'float32');
    const stats = be.makeOutput([R, 2], 'float32');
    const [px, pw, pb, py, ps] = [at(be, x), at(be, w), at(be, b), at(be, y), at(be, stats)];
    // rows are independent: cut over our helper threads in the threaded build (wasm-helper-threads.ts)
    runRows(be, layerNormWasm, 'forward', R, 1, R * M >= SPLIT_MIN_VALUES, (r0, r1) => [px + 4 * r0 * M, pw, pb, py + 4 * r0 * M, ps + 8 * r0, r1 - r0, M], forward);
    return [y, stats];
  });
  registerHeapKernel<{ dy: Info; x: Info; w: Info; stats: Info }>(backward, (args) => {
    const { dy, x, w, stats } = args.inputs;
    const [R, M] = rowsOf(backward, x, { dy, w, stats });
    const be = args.backend;
    const dx = be.makeOutput([R, M], 'float32');
    const dw = be.makeOutput([M], 'float32');
    const db = be.makeOutput([M], 'float32');
    heapKernels<Kernels>(be, layerNormWasm, backward).backward(at(be, dy), at(be, x), at(be, w), at(be, stats), at(be, dx), at(be, dw), at(be, db), R, M);
    return [dx, dw, db];
  });
}
