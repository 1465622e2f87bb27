// LiNO's per-sample branch mixture and its gradient (ops/mix.ts) on the wasm backend as WebAssembly
// SIMD of our own (main/ops/wasm/mix.wat) on tfjs's heap (wasm-heap.ts), with the cpu kernels'
// inputs and outputs: alpha [B, K], b0..b(K-1) -> out; g, alpha, b0.. -> d alpha, d b0... The
// kernel walks samples and branches here, calling the SIMD loops once per (sample, branch) block.
// They replace the composed ops wasm ran (43 kernels forward and backward; 0.78 ms at 3 branches of
// [4096, 32]).
import * as tf from '../tf';
import { mixWasm } from '../wasm/mix-wasm';
import { heapKernels, heapOffset as at, registerHeapKernel } from './wasm-heap';

interface Kernels {
  axpy(dst: number, src: number, n: number, a: number, add: number): void;
  scaleDot(dst: number, g: number, src: number, n: number, a: number): number;
}
type Info = tf.TensorInfo;

/** The branches in order, [B, K] and the values per sample, after checking every shape. */
function prepare(name: string, inputs: Record<string, Info | undefined>, extra: Info[]): { alpha: Info; br: Info[]; B: number; K: number; per: number } {
  const alpha = inputs.alpha!;
  const br = ['b0', 'b1', 'b2'].map((k) => inputs[k]).filter((t): t is Info => t !== undefined);
  const [B, K] = alpha.shape as [number, number];
  const size = br[0] ? tf.util.sizeFromShape(br[0].shape) : 0;
  if (alpha.shape.length !== 2 || br.length !== K || B === 0 || size % B !== 0 || [...br, ...extra].some((t) => t.shape.join() !== br[0]!.shape.join())) {
    throw new Error(`${name}: expected alpha [B, K] and K branches of one shape with B equal blocks, got alpha [${alpha.shape.join(', ')}] and ${br.length} branch(es)`);
  }
  return { alpha, br, B, K, per: size / B };
}

/** Registers `forward` and `backward` on wasm (idempotent). */
export function registerWasmMix(forward: string, backward: string): void {
  registerHeapKernel<Record<string, Info>>(forward, (args) => {
    const be = args.backend;
    const { alpha, br, B, K, per } = prepare(forward, args.inputs, []);
    const k = heapKernels<Kernels>(be, mixWasm, forward);
    const a = be.typedArrayFromHeap(alpha).slice(); // a copy: the output's allocation may move the heap
    const out = be.makeOutput(br[0]!.shape.slice(), 'float32');
    for (let b = 0; b < B; b++) {
      for (let j = 0; j < K; j++) k.axpy(at(be, out) + 4 * b * per, at(be, br[j]!) + 4 * b * per, per, a[b * K + j]!, j > 0 ? 1 : 0);
    }
    return out;
  });
  registerHeapKernel<Record<string, Info>>(backward, (args) => {
    const be = args.backend;
    const g = args.inputs.g!;
    const { alpha, br, B, K, per } = prepare(backward, args.inputs, [g]);
    const k = heapKernels<Kernels>(be, mixWasm, backward);
    const a = be.typedArrayFromHeap(alpha).slice();
    const dAlpha = be.makeOutput([B, K], 'float32');
    const dBr = br.map(() => be.makeOutput(br[0]!.shape.slice(), 'float32'));
    const sums = new Float32Array(B * K);
    for (let b = 0; b < B; b++) {
      for (let j = 0; j < K; j++) sums[b * K + j] = k.scaleDot(at(be, dBr[j]!) + 4 * b * per, at(be, g) + 4 * b * per, at(be, br[j]!) + 4 * b * per, per, a[b * K + j]!);
    }
    be.typedArrayFromHeap(dAlpha).set(sums);
    return [dAlpha, ...dBr];
  });
}
