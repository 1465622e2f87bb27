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

interface Dims { B: number; C: number; Co: number; P: number; Q: number; G: number; Qg: number; K: number }

function dimsOf(x: readonly number[], w: readonly number[], G: number): Dims {
  const [B, C, P, two, Q] = x as [number, number, number, number, number];
  const [Cw, Co, Qg, Pw, twoW] = w as [number, number, number, number, number];
  if (x.length !== 5 || w.length !== 5 || two !== 2 || twoW !== 2 || Cw !== C || Pw !== P || G * Qg !== Q) {
    throw new Error(`spectralMix: expected spectrum [B, C, P, 2, Q] and ${G} weight(s) [C, Co, Q/${G}, P, 2], got [${x.join(', ')}] and [${w.join(', ')}]`);
  }
  return { B, C, P, Q, Co, G, Qg, K: P * Q };
}

/** Spectrum [B, C, P, 2, Q] -> re, im [K][B][C], mode k = p * Q + q. */
function gatherSpectrum(x: Float32Array, B: number, C: number, P: number, Q: number): [Float32Array, Float32Array] {
  const K = P * Q;
  const re = new Float32Array(K * B * C);
  const im = new Float32Array(K * B * C);
  for (let b = 0; b < B; b++) {
    for (let c = 0; c < C; c++) {
      for (let p = 0; p < P; p++) {
        const src = ((b * C + c) * P + p) * 2 * Q;
        for (let q = 0; q < Q; q++) {
          const dst = ((p * Q + q) * B + b) * C + c;
          re[dst] = x[src + q]!;
          im[dst] = x[src + Q + q]!;
        }
      }
    }
  }
  return [re, im];
}

/** re, im [K][B][C] -> spectrum [B, C, P, 2, Q] (the inverse of gatherSpectrum). */
function scatterSpectrum(re: Float32Array, im: Float32Array, B: number, C: number, P: number, Q: number): Float32Array {
  const out = new Float32Array(B * C * P * 2 * Q);
  for (let b = 0; b < B; b++) {
    for (let c = 0; c < C; c++) {
      for (let p = 0; p < P; p++) {
        const dst = ((b * C + c) * P + p) * 2 * Q;
        for (let q = 0; q < Q; q++) {
          const src = ((p * Q + q) * B + b) * C + c;
          out[dst + q] = re[src]!;
          out[dst + Q + q] = im[src]!;
        }
      }
    }
  }
  return out;
}

/** Weights W_g [C, Co, Qg, P, 2] -> re, im [K][C][Co]. */
function gatherWeights(ws: Float32Array[], d: Dims): [Float32Array, Float32Array] {
  const { C, Co, P, Q, Qg, K } = d;
  const re = new Float32Array(K * C * Co);
  const im = new Float32Array(K * C * Co);
  ws.forEach((w, g) => {
    for (let i = 0; i < C; i++) {
      for (let o = 0; o < Co; o++) {
        for (let qq = 0; qq < Qg; qq++) {
          for (let p = 0; p < P; p++) {
            const src = (((i * Co + o) * Qg + qq) * P + p) * 2;
            const dst = ((p * Q + g * Qg + qq) * C + i) * Co + o;
            re[dst] = w[src]!;
            im[dst] = w[src + 1]!;
          }
        }
      }
    }
  });
  return [re, im];
}

/** re, im [K][C][Co] -> G weight gradients [C, Co, Qg, P, 2]. */
function scatterWeights(re: Float32Array, im: Float32Array, d: Dims): Float32Array[] {
  const { C, Co, P, Q, Qg, G } = d;
  return Array.from({ length: G }, (_, g) => {
    const w = new Float32Array(C * Co * Qg * P * 2);
    for (let i = 0; i < C; i++) {
      for (let o = 0; o < Co; o++) {
        for (let qq = 0; qq < Qg; qq++) {
          for (let p = 0; p < P; p++) {
            const dst = (((i * Co + o) * Qg + qq) * P + p) * 2;
            const src = ((p * Q + g * Qg + qq) * C + i) * Co + o;
            w[dst] = re[src]!;
            w[dst + 1] = im[src]!;
          }
        }
      }
    }
    return w;
  });
}

function mixForward(inputs: Float32Array[], shapes: number[][]): JsOut[] {
  const G = inputs.length - 1;
  const d = dimsOf(shapes[0]!, shapes[1]!, G);
  const { B, C, Co, P, Q, K } = d;
  const [xr, xi] = gatherSpectrum(inputs[0]!, B, C, P, Q);
  const [wr, wi] = gatherWeights(inputs.slice(1), d);
  const yr = new Float32Array(K * B * Co);
  const yi = new Float32Array(K * B * Co);
  for (let k = 0; k < K; k++) {
    for (let b = 0; b < B; b++) {
      const y0 = (k * B + b) * Co;
      for (let i = 0; i < C; i++) {
        const a = xr[(k * B + b) * C + i]!;
        const c = xi[(k * B + b) * C + i]!;
        const w0 = (k * C + i) * Co;
        for (let o = 0; o < Co; o++) {
          const r = wr[w0 + o]!;
          const s = wi[w0 + o]!;
          yr[y0 + o] += a * r - c * s;
          yi[y0 + o] += a * s + c * r;
        }
      }
    }
  }
  return [{ shape: [B, Co, P, 2, Q], values: scatterSpectrum(yr, yi, B, Co, P, Q) }];
}

/** inputs: dY, X, W_1..W_G -> dX, dW_1..dW_G. */
function mixGradient(inputs: Float32Array[], shapes: number[][]): JsOut[] {
  const G = inputs.length - 2;
  const d = dimsOf(shapes[1]!, shapes[2]!, G);
  const { B, C, Co, P, Q, K } = d;
  const [gr, gi] = gatherSpectrum(inputs[0]!, B, Co, P, Q);
  const [xr, xi] = gatherSpectrum(inputs[1]!, B, C, P, Q);
  const [wr, wi] = gatherWeights(inputs.slice(2), d);
  const dxr = new Float32Array(K * B * C);
  const dxi = new Float32Array(K * B * C);
  const dwr = new Float32Array(K * C * Co);
  const dwi = new Float32Array(K * C * Co);
  for (let k = 0; k < K; k++) {
    for (let b = 0; b < B; b++) {
      const g0 = (k * B + b) * Co;
      for (let i = 0; i < C; i++) {
        const xIdx = (k * B + b) * C + i;
        const a = xr[xIdx]!;
        const c = xi[xIdx]!;
        const w0 = (k * C + i) * Co;
        let sr = 0;
        let si = 0;
        for (let o = 0; o < Co; o++) {
          const u = gr[g0 + o]!;
          const v = gi[g0 + o]!;
          const r = wr[w0 + o]!;
          const s = wi[w0 + o]!;
          // Yr = a r - c s, Yi = a s + c r: the real gradient of each real input
          sr += u * r + v * s;
          si += v * r - u * s;
          dwr[w0 + o] += u * a + v * c;
          dwi[w0 + o] += v * a - u * c;
        }
        dxr[xIdx] = sr;
        dxi[xIdx] = si;
      }
    }
  }
  return [
    { shape: shapes[1]!, values: scatterSpectrum(dxr, dxi, B, C, P, Q) },
    ...scatterWeights(dwr, dwi, d).map((values, g) => ({ shape: shapes[2 + g]!, values })),
  ];
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
