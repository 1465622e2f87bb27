// The efficient scattering's output and its gradient (ops/scattering-output.ts) on the wasm backend
// as WebAssembly SIMD of our own (main/ops/wasm/scattering-output.wat) on tfjs's heap (wasm-heap.ts),
// with the cpu kernels' inputs and outputs: num, qk, yloc, h, gate, ls -> out; g and the same ->
// dnum, dqk, dyloc, dh and the per-row terms of d gate and d ls. They replace the composed ops wasm
// ran (63 kernels forward and backward; 1.35 ms at [4096, 32]).
import * as tf from '../tf';
import { scatteringOutputWasm } from '../wasm/scattering-output-wasm';
import { heapKernels, heapOffset as at, registerHeapKernel, type HeapBackend } from './wasm-heap';

interface Kernels {
  forward(num: number, qk: number, yl: number, h: number, beta: number, e: number, out: number, R: number, M: number): void;
  backward(g: number, num: number, qk: number, yl: number, h: number, beta: number, e: number, dnum: number, dqk: number, dyl: number, dh: number, pg: number, pl: number, R: number, M: number): void;
}
type Info = tf.TensorInfo;
interface Inputs { g?: Info; num: Info; qk: Info; yloc: Info; h: Info; gate: Info; ls: Info }

/** [R, M] of h, beta = sigmoid(gate) and e = exp(ls), after checking the operands against them. */
function prepare(name: string, be: HeapBackend, { g, num, qk, yloc, h, gate, ls }: Inputs): [number, number, number, number] {
  const [R, M] = h.shape as [number, number];
  const size = tf.util.sizeFromShape;
  if (h.shape.length !== 2 || size(num.shape) !== R * M || size(qk.shape) !== R || yloc.shape.join() !== h.shape.join() || (g && size(g.shape) !== R * M) || gate.shape.length !== 0 || ls.shape.length !== 0) {
    throw new Error(`${name}: shapes num [${num.shape}], qk [${qk.shape}], yloc [${yloc.shape}], h [${h.shape}], gate [${gate.shape}], ls [${ls.shape}] do not fit rows [R, M]`);
  }
  const gateValue = be.typedArrayFromHeap(gate)[0]!;
  return [R, M, 1 / (1 + Math.exp(-gateValue)), Math.exp(be.typedArrayFromHeap(ls)[0]!)];
}

/** Registers `forward` and `backward` on wasm (idempotent). */
export function registerWasmScatteringOutput(forward: string, backward: string): void {
  registerHeapKernel<Inputs>(forward, (args) => {
    const be = args.backend;
    const { num, qk, yloc, h } = args.inputs;
    const [R, M, beta, e] = prepare(forward, be, args.inputs);
    const out = be.makeOutput([R, M], 'float32');
    heapKernels<Kernels>(be, scatteringOutputWasm, forward).forward(at(be, num), at(be, qk), at(be, yloc), at(be, h), beta, e, at(be, out), R, M);
    return out;
  });
  registerHeapKernel<Inputs>(backward, (args) => {
    const be = args.backend;
    const { g, num, qk, yloc, h } = args.inputs;
    if (!g) throw new Error(`${backward}: missing input 'g'`);
    const [R, M, beta, e] = prepare(backward, be, args.inputs);
    const [dnum, dqk, dyl, dh] = [num.shape, qk.shape, [R, M], [R, M]].map((s) => be.makeOutput(s.slice(), 'float32')) as [Info, Info, Info, Info];
    const [pg, pl] = [be.makeOutput([R], 'float32'), be.makeOutput([R], 'float32')];
    heapKernels<Kernels>(be, scatteringOutputWasm, backward).backward(at(be, g), at(be, num), at(be, qk), at(be, yloc), at(be, h), beta, e,
      at(be, dnum), at(be, dqk), at(be, dyl), at(be, dh), at(be, pg), at(be, pl), R, M);
    return [dnum, dqk, dyl, dh, pg, pl];
  });
}
