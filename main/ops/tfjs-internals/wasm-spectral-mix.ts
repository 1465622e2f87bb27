// FNO's spectral mix (ops/spectral-mix.ts) on the wasm backend as WebAssembly SIMD of our own
// (main/ops/wasm/spectral-mix.wat) on tfjs's heap (wasm-heap.ts): inputs, outputs and the weights'
// scratch copy are heap offsets. The JS loops it replaces (still cpu's kernels) ran at ~4 GFLOP/s
// with strided reads: at the paper's size (B4, width 32, modes 12) a layer's forward took 3.0 ms
// and its gradient 6.2.
import * as tf from '../tf';
import { spectralMixWasm } from '../wasm/spectral-mix-wasm';
import { heapKernels, heapOffset as at, withScratch, registerHeapKernel } from './wasm-heap';

interface Dims { B: number; C: number; Co: number; P: number; Q: number; Qg: number }
export type DimsOf = (x: readonly number[], w: readonly number[], G: number) => Dims;

interface Kernels {
  cmix(L: number, lm: number, lk: number, R: number, rk: number, rn: number, Y: number, M: number, N: number, K: number, P: number, Q: number, mode: number): void;
  permute(w: number, wt: number, C: number, Co: number, bi: number, bo: number, P: number, Qg: number, Q: number, g: number, toSpectrum: number): void;
}
type Info = tf.TensorInfo;

/** complex product of the sum's terms: L R, conj(L) R, L conj(R) (the .wat's `mode`) */
const PLAIN = 0;
const CONJ_LEFT = 1;
const CONJ_RIGHT = 2;

/**
 * Registers FnoSpectralMix (x, w1, w2? -> y) and FnoSpectralMixGrad (dy, x, w1, w2? -> dx, dw1, dw2?)
 * on wasm (idempotent); `dimsOf` is the op's own shape check.
 */
export function registerWasmSpectralMix(dimsOf: DimsOf): void {
  registerHeapKernel<{ x: Info; w1: Info; w2?: Info }>('FnoSpectralMix', (args) => {
    const { x, w1, w2 } = args.inputs;
    const ws = w2 ? [w1, w2] : [w1];
    const be = args.backend;
    const { B, C, Co, P, Q, Qg } = dimsOf(x.shape, w1.shape, ws.length);
    const S = P * 2 * Q;
    const k = heapKernels<Kernels>(be, spectralMixWasm, 'FnoSpectralMix');
    const y = be.makeOutput([B, Co, P, 2, Q], 'float32');
    withScratch(be, C * Co * S, 'FnoSpectralMix', (wt) => {
      // o-major weight blocks: the sum over input channels reads blocks one apart
      ws.forEach((w, g) => k.permute(at(be, w), wt, C, Co, 1, C, P, Qg, Q, g, 1));
      k.cmix(at(be, x), 4 * C * S, 4 * S, wt, 4 * S, 4 * C * S, at(be, y), B, Co, C, P, Q, PLAIN);
    });
    return y;
  });
  registerHeapKernel<{ dy: Info; x: Info; w1: Info; w2?: Info }>('FnoSpectralMixGrad', (args) => {
    const { dy, x, w1, w2 } = args.inputs;
    const ws = w2 ? [w1, w2] : [w1];
    const be = args.backend;
    const { B, C, Co, P, Q, Qg } = dimsOf(x.shape, w1.shape, ws.length);
    const S = P * 2 * Q;
    const k = heapKernels<Kernels>(be, spectralMixWasm, 'FnoSpectralMix');
    const dx = be.makeOutput([B, C, P, 2, Q], 'float32');
    const dws = ws.map((w) => be.makeOutput(w.shape.slice(), 'float32'));
    withScratch(be, C * Co * S, 'FnoSpectralMix', (wt) => {
      // dX[b, i] = sum over o of dY[b, o] conj(W[i, o]), on i-major weight blocks
      ws.forEach((w, g) => k.permute(at(be, w), wt, C, Co, Co, 1, P, Qg, Q, g, 1));
      k.cmix(at(be, dy), 4 * Co * S, 4 * S, wt, 4 * S, 4 * Co * S, at(be, dx), B, C, Co, P, Q, CONJ_RIGHT);
      // dW[i, o] = sum over b of conj(X[b, i]) dY[b, o], into the same scratch, then to each weight's layout
      k.cmix(at(be, x), 4 * S, 4 * C * S, at(be, dy), 4 * Co * S, 4 * S, wt, C, Co, B, P, Q, CONJ_LEFT);
      dws.forEach((dw, g) => k.permute(at(be, dw), wt, C, Co, Co, 1, P, Qg, Q, g, 0));
    });
    return [dx, ...dws];
  });
}
