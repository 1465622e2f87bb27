// FNO's per-mode complex channel mixing, Y[b,o,k] = sum_i X[b,i,k] W[i,o,k] (einsum
// "bixy,ioxy->boxy" of the original), on the layouts the truncated DFT matMuls produce and consume,
// with the weights in their stored layout. Composed from tf ops this needs 5-D transposes of the
// spectrum and of the weights, a real block [[Wr, Wi], [-Wi, Wr]] per mode and a batch of tiny
// products; on wasm their gradients (SplitV of the weight concat, strided slices) were 85% of an
// FNO step at the paper's size. So cpu and wasm run it as one fused JS kernel (and one for its
// gradient) that reads every layout as it is; webgpu keeps the composed ops.
//   X [B, C, P, 2, Q]: spectrum, re/im on axis 3, modes (p, q);
//   W_g [C, Co, Qg, P, 2]: G weight tensors (2-D FNO: weights1 / weights2, the kept rows of each
//   sign), mode q of the spectrum is q' = q mod Qg of W_{floor(q / Qg)}; Q = G * Qg;
//   Y [B, Co, P, 2, Q].
import * as tf from './tf';
import { customGradOp } from './custom-grad';
import { hasFusedKernel, registerFusedKernel, runFused, type JsOut } from './kernel-registry';
import { bmm } from './batch-matmul';

interface Dims { B: number; C: number; Co: number; P: number; Q: number; Qg: number }

function dimsOf(x: readonly number[], w: readonly number[], G: number): Dims {
  const [B, C, P, two, Q] = x as [number, number, number, number, number];
  const [Cw, Co, Qg, Pw, twoW] = w as [number, number, number, number, number];
  if (x.length !== 5 || w.length !== 5 || two !== 2 || twoW !== 2 || Cw !== C || Pw !== P || G * Qg !== Q) {
    throw new Error(`spectralMix: expected spectrum [B, C, P, 2, Q] and ${G} weight(s) [C, Co, Q/${G}, P, 2], got [${x.join(', ')}] and [${w.join(', ')}]`);
  }
  return { B, C, P, Q, Co, Qg };
}

// The loops walk every tensor in its own layout: for each (i, o) the weights' modes are one
// contiguous block, for each (b, i) / (b, o) the spectrum's too, so all reads stay in cache and
// nothing is gathered or transposed. Mode (p, q) of the spectrum: q = g * Qg + qq.

function mixForward(inputs: Float32Array[], shapes: number[][]): JsOut[] {
  const x = inputs[0]!;
  const ws = inputs.slice(1);
  const { B, C, Co, P, Q, Qg } = dimsOf(shapes[0]!, shapes[1]!, ws.length);
  const S = P * 2 * Q; // one (b, channel) block of the spectrum
  const y = new Float32Array(B * Co * S);
  for (let i = 0; i < C; i++) {
    for (let o = 0; o < Co; o++) {
      for (let b = 0; b < B; b++) {
        const x0 = (b * C + i) * S;
        const y0 = (b * Co + o) * S;
        for (let g = 0; g < ws.length; g++) {
          const w = ws[g]!;
          // innermost over q: contiguous in the spectrum (the 1-D layout has P = 1)
          for (let p = 0; p < P; p++) {
            for (let qq = 0; qq < Qg; qq++) {
              const q = g * Qg + qq;
              const wi = (((i * Co + o) * Qg + qq) * P + p) * 2;
              const r = w[wi]!;
              const s = w[wi + 1]!;
              const re = x0 + p * 2 * Q + q;
              const a = x[re]!;
              const c = x[re + Q]!;
              y[y0 + p * 2 * Q + q] += a * r - c * s;
              y[y0 + p * 2 * Q + Q + q] += a * s + c * r;
            }
          }
        }
      }
    }
  }
  return [{ shape: [B, Co, P, 2, Q], values: y }];
}

/** inputs: dY, X, W_1..W_G -> dX, dW_1..dW_G. */
function mixGradient(inputs: Float32Array[], shapes: number[][]): JsOut[] {
  const [dy, x] = inputs as [Float32Array, Float32Array];
  const ws = inputs.slice(2);
  const { B, C, Co, P, Q, Qg } = dimsOf(shapes[1]!, shapes[2]!, ws.length);
  const S = P * 2 * Q;
  const dx = new Float32Array(B * C * S);
  const dws = ws.map((w) => new Float32Array(w.length));
  for (let i = 0; i < C; i++) {
    for (let o = 0; o < Co; o++) {
      for (let b = 0; b < B; b++) {
        const x0 = (b * C + i) * S;
        const y0 = (b * Co + o) * S;
        for (let g = 0; g < ws.length; g++) {
          const w = ws[g]!;
          const dw = dws[g]!;
          // innermost over q: contiguous in the spectrum (the 1-D layout has P = 1)
          for (let p = 0; p < P; p++) {
            for (let qq = 0; qq < Qg; qq++) {
              const q = g * Qg + qq;
              const wi = (((i * Co + o) * Qg + qq) * P + p) * 2;
              const r = w[wi]!;
              const s = w[wi + 1]!;
              const re = x0 + p * 2 * Q + q;
              const a = x[re]!;
              const c = x[re + Q]!;
              const u = dy[y0 + p * 2 * Q + q]!;
              const v = dy[y0 + p * 2 * Q + Q + q]!;
              // Yr = a r - c s, Yi = a s + c r: the real gradient of each real input
              dx[re] += u * r + v * s;
              dx[re + Q] += v * r - u * s;
              dw[wi] += u * a + v * c;
              dw[wi + 1] += v * a - u * c;
            }
          }
        }
      }
    }
  }
  return [{ shape: shapes[1]!, values: dx }, ...dws.map((values, g) => ({ shape: shapes[2 + g]!, values }))];
}

registerFusedKernel('FnoSpectralMix', ['x', 'w1', 'w2?'], mixForward);
registerFusedKernel('FnoSpectralMixGrad', ['dy', 'x', 'w1', 'w2?'], mixGradient);

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
