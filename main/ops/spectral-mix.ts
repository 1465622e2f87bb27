// FNO's per-mode complex channel mixing, Y[b,o,k] = sum_i X[b,i,k] W[i,o,k] (einsum
// "bixy,ioxy->boxy" of the original), on the layouts the truncated DFT matMuls produce and consume,
// with the weights in their stored layout. Composed from tf ops this needs 5-D transposes of the
// spectrum and of the weights, a real block [[Wr, Wi], [-Wi, Wr]] per mode and a batch of tiny
// products; on wasm their gradients (SplitV of the weight concat, strided slices) were 85% of an
// FNO step at the paper's size. So cpu runs it as one fused JS kernel (and one for its gradient)
// that reads every layout as it is, wasm as WebAssembly SIMD of our own on the same layouts
// (tfjs-internals/wasm-spectral-mix.ts), and webgpu keeps the composed ops.
//   X [B, C, P, 2, Q]: spectrum, re/im on axis 3, modes (p, q);
//   W_g [C, Co, Qg, P, 2]: G weight tensors (2-D FNO: weights1 / weights2, the kept rows of each
//   sign), mode q of the spectrum is q' = q mod Qg of W_{floor(q / Qg)}; Q = G * Qg;
//   Y [B, Co, P, 2, Q].
import * as tf from './tf';
import { customGradOp } from './custom-grad';
import { hasFusedKernel, registerFusedKernel, runFused, type JsOut } from './kernel-registry';
import { bmm } from './batch-matmul';
import { registerWasmSpectralMix } from './tfjs-internals/wasm-spectral-mix';

interface Dims { B: number; C: number; Co: number; P: number; Q: number; Qg: number }

function dimsOf(x: readonly number[], w: readonly number[], G: number): Dims {
  const [B, C, P, two, Q] = x as [number, number, number, number, number];
  const [Cw, Co, Qg, Pw, twoW] = w as [number, number, number, number, number];
  if (x.length !== 5 || w.length !== 5 || two !== 2 || twoW !== 2 || Cw !== C || Pw !== P || G * Qg !== Q) {
    throw new Error(`spectralMix: expected spectrum [B, C, P, 2, Q] and ${G} weight(s) [C, Co, Q/${G}, P, 2], got [${x.join(', ')}] and [${w.join(', ')}]`);
  }
  return { B, C, P, Q, Co, Qg };
}

// Each output element is a dot product over one axis (forward: input channels i; dX: output
// channels o; dW: the batch b), accumulated in locals and stored once: the earlier loops did a
// read-modify-write of a Float32Array element per multiply-add (4 in the gradient), which was most
// of FNO Burgers 256's step on wasm (node --cpu-prof: mixGradient + mixForward ~40% of CPU).
// Mode (p, q) of the spectrum: q = g * Qg + qq; the weights' (i, o, qq, p) entry is re/im at wi.

function mixForward(inputs: Float32Array[], shapes: number[][]): JsOut[] {
  const x = inputs[0]!;
  const ws = inputs.slice(1);
  const { B, C, Co, P, Q, Qg } = dimsOf(shapes[0]!, shapes[1]!, ws.length);
  const S = P * 2 * Q; // one (b, channel) block of the spectrum
  const WS = Co * Qg * P * 2; // weight stride of one input channel
  const y = new Float32Array(B * Co * S);
  for (let b = 0; b < B; b++) {
    for (let o = 0; o < Co; o++) {
      const y0 = (b * Co + o) * S;
      for (let g = 0; g < ws.length; g++) {
        const w = ws[g]!;
        for (let p = 0; p < P; p++) {
          for (let qq = 0; qq < Qg; qq++) {
            let xi = b * C * S + p * 2 * Q + g * Qg + qq;
            let wi = ((o * Qg + qq) * P + p) * 2;
            let yr = 0;
            let yi = 0;
            for (let i = 0; i < C; i++, xi += S, wi += WS) {
              const a = x[xi]!;
              const c = x[xi + Q]!;
              const r = w[wi]!;
              const s = w[wi + 1]!;
              yr += a * r - c * s;
              yi += a * s + c * r;
            }
            const yo = y0 + p * 2 * Q + g * Qg + qq;
            y[yo] = yr;
            y[yo + Q] = yi;
          }
        }
      }
    }
  }
  return [{ shape: [B, Co, P, 2, Q], values: y }];
}

/** dX[b, i] = sum_o dY[b, o] conj-mixed by W[i, o] (Yr = a r - c s, Yi = a s + c r). */
function mixGradX(dy: Float32Array, ws: Float32Array[], d: Dims): Float32Array {
  const { B, C, Co, P, Q, Qg } = d;
  const S = P * 2 * Q;
  const dx = new Float32Array(B * C * S);
  for (let b = 0; b < B; b++) {
    for (let i = 0; i < C; i++) {
      const x0 = (b * C + i) * S;
      for (let g = 0; g < ws.length; g++) {
        const w = ws[g]!;
        for (let p = 0; p < P; p++) {
          for (let qq = 0; qq < Qg; qq++) {
            let yi = b * Co * S + p * 2 * Q + g * Qg + qq;
            let wi = ((i * Co * Qg + qq) * P + p) * 2;
            let dr = 0;
            let dc = 0;
            for (let o = 0; o < Co; o++, yi += S, wi += Qg * P * 2) {
              const u = dy[yi]!;
              const v = dy[yi + Q]!;
              const r = w[wi]!;
              const s = w[wi + 1]!;
              dr += u * r + v * s;
              dc += v * r - u * s;
            }
            const xo = x0 + p * 2 * Q + g * Qg + qq;
            dx[xo] = dr;
            dx[xo + Q] = dc;
          }
        }
      }
    }
  }
  return dx;
}

/** dW_g[i, o, qq, p] = sum_b of dY[b, o] against X[b, i] at mode (p, g * Qg + qq). */
function mixGradW(dy: Float32Array, x: Float32Array, g: number, d: Dims): Float32Array {
  const { B, C, Co, P, Q, Qg } = d;
  const S = P * 2 * Q;
  const dw = new Float32Array(C * Co * Qg * P * 2);
  for (let i = 0; i < C; i++) {
    for (let o = 0; o < Co; o++) {
      for (let qq = 0; qq < Qg; qq++) {
        for (let p = 0; p < P; p++) {
          const m = p * 2 * Q + g * Qg + qq;
          let dr = 0;
          let ds = 0;
          for (let b = 0; b < B; b++) {
            const a = x[(b * C + i) * S + m]!;
            const c = x[(b * C + i) * S + m + Q]!;
            const u = dy[(b * Co + o) * S + m]!;
            const v = dy[(b * Co + o) * S + m + Q]!;
            dr += u * a + v * c;
            ds += v * a - u * c;
          }
          const wi = (((i * Co + o) * Qg + qq) * P + p) * 2;
          dw[wi] = dr;
          dw[wi + 1] = ds;
        }
      }
    }
  }
  return dw;
}

/** inputs: dY, X, W_1..W_G -> dX, dW_1..dW_G. */
function mixGradient(inputs: Float32Array[], shapes: number[][]): JsOut[] {
  const [dy, x] = inputs as [Float32Array, Float32Array];
  const ws = inputs.slice(2);
  const d = dimsOf(shapes[1]!, shapes[2]!, ws.length);
  const dx = mixGradX(dy, ws, d);
  return [{ shape: shapes[1]!, values: dx }, ...ws.map((_, g) => ({ shape: shapes[2 + g]!, values: mixGradW(dy, x, g, d) }))];
}

registerFusedKernel('FnoSpectralMix', ['x', 'w1', 'w2?'], mixForward, undefined, { wasm: false });
registerFusedKernel('FnoSpectralMixGrad', ['dy', 'x', 'w1', 'w2?'], mixGradient, undefined, { wasm: false });
registerWasmSpectralMix(dimsOf);

/** The composed ops (webgpu, and the fused kernels switched off): one real block product per mode. */
function mixComposed(x: tf.Tensor, ws: tf.Tensor[]): tf.Tensor {
  const [B, C, P, , Q] = x.shape as [number, number, number, number, number];
  const Co = ws[0]!.shape[1]!;
  const K = P * Q;
  const w = tf.reshape(tf.transpose(ws.length === 1 ? ws[0]! : tf.concat(ws, 2), [2, 3, 0, 1, 4]), [K, C, Co, 2]);
  const re = tf.reshape(tf.slice(w, [0, 0, 0, 0], [K, C, Co, 1]), [K, C, Co]);
  const im = tf.reshape(tf.slice(w, [0, 0, 0, 1], [K, C, Co, 1]), [K, C, Co]);
  const block = tf.concat([tf.concat([re, im], 2), tf.concat([tf.neg(im), re], 2)], 1) as tf.Tensor3D; // [K, 2C, 2Co]
  const xk = tf.reshape(tf.transpose(x, [4, 2, 0, 3, 1]), [K, B, 2 * C]) as tf.Tensor3D; // k = q * P + p
  const y = bmm(xk, block); // [K, B, 2Co]
  return tf.transpose(tf.reshape(y, [Q, P, B, 2, Co]), [2, 4, 1, 3, 0]);
}

const fusedMix1 = customGradOp((x: tf.Tensor, w1: tf.Tensor, save: tf.GradSaveFunc) => {
  save([x, w1]);
  return {
    value: runFused('FnoSpectralMix', { x, w1 })[0]!,
    gradFunc: (dy: tf.Tensor, s: tf.Tensor[]) => runFused('FnoSpectralMixGrad', { dy, x: s[0]!, w1: s[1]! }),
  };
});

const fusedMix2 = customGradOp((x: tf.Tensor, w1: tf.Tensor, w2: tf.Tensor, save: tf.GradSaveFunc) => {
  save([x, w1, w2]);
  return {
    value: runFused('FnoSpectralMix', { x, w1, w2 })[0]!,
    gradFunc: (dy: tf.Tensor, s: tf.Tensor[]) => runFused('FnoSpectralMixGrad', { dy, x: s[0]!, w1: s[1]!, w2: s[2]! }),
  };
});

/** x [B, C, P, 2, Q], weights [C, Co, Q / G, P, 2] (G = 1 or 2) -> [B, Co, P, 2, Q]. */
export function spectralMix(x: tf.Tensor, weights: tf.Tensor[]): tf.Tensor {
  if (weights.length < 1 || weights.length > 2) throw new Error(`spectralMix: expected 1 or 2 weight tensors, got ${weights.length}`);
  dimsOf(x.shape, weights[0]!.shape, weights.length);
  if (weights[1] && weights[1].shape.join() !== weights[0]!.shape.join()) throw new Error(`spectralMix: weight shapes differ: [${weights[0]!.shape.join(', ')}] and [${weights[1].shape.join(', ')}]`);
  if (!hasFusedKernel('FnoSpectralMix')) return tf.tidy(() => mixComposed(x, weights));
  return weights.length === 1 ? fusedMix1(x, weights[0]!) : fusedMix2(x, weights[0]!, weights[1]!);
}
