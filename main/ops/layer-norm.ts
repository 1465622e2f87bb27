// LayerNorm over the last axis: biased variance, eps 1e-5, learnable scale and shift (nn.LayerNorm).
// Fused where the backend has the kernels (cpu: JS; webgpu: WGSL; wasm: WebAssembly SIMD of our own,
// tfjs-internals/wasm-layer-norm.ts, where the JS kernel was no faster than the composed ops): one kernel forward
// (output + per-row mean and 1/std, kept for the backward) and one backward (dx, dw, db).
// Otherwise composed on 2-D views with a custom gradient (the standard closed form): autodiff
// through mean/variance costs about twice the full-size passes. The scale/shift gradients are
// axis-0 sums (on wasm a fast transpose and an innermost sum, wasm-kernels.ts): a matMul with a
// row of ones was 4x slower there, since XNNPACK repacks its fresh right operand on every call
// ([1, 4096] x [4096, 32]: 0.31 ms against 0.07 ms).
import * as tf from './tf';
import { customGradOp } from './custom-grad';
import { FusedProgram, hasFusedKernel, registerFusedKernel, runFused, runReduction } from './kernel-registry';
import { registerWasmLayerNorm } from './tfjs-internals/wasm-layer-norm';

export class LinoLayerNormProgram extends FusedProgram {}
export class LinoLayerNormStatsProgram extends FusedProgram {}
export class LinoLayerNormGradInputProgram extends FusedProgram {}
export class LinoLayerNormGradWeightProgram extends FusedProgram {}
export class LinoLayerNormGradBiasProgram extends FusedProgram {}

const EPS = 1e-5;
const FWD = 'LinoLayerNorm';
const BWD = 'LinoLayerNormGrad';

registerFusedKernel(FWD, ['x', 'w', 'b'], ([x, w, b], [shape]) => {
  const [R, M] = shape as [number, number];
  const y = new Float32Array(R * M);
  const stats = new Float32Array(R * 2);
  for (let r = 0, o = 0; r < R; r++, o += M) {
    let sum = 0;
    for (let j = 0; j < M; j++) sum += x![o + j]!;
    const mean = sum / M;
    let ss = 0;
    for (let j = 0; j < M; j++) { const d = x![o + j]! - mean; ss += d * d; }
    const rstd = 1 / Math.sqrt(ss / M + EPS);
    for (let j = 0; j < M; j++) y[o + j] = (x![o + j]! - mean) * rstd * w![j]! + b![j]!;
    stats[2 * r] = mean;
    stats[2 * r + 1] = rstd;
  }
  return [{ shape: [R, M], values: y }, { shape: [R, 2], values: stats }];
}, ([x, w, b], run) => {
  const [R, M] = x!.shape as [number, number];
  // one thread per row walks its M values (M is the width, at most a few hundred)
  const head = `let o = index * uniforms.M;
  var sum = 0.0;
  for (var j = 0; j < uniforms.M; j++) { sum += X[o + j]; }
  let mean = sum / f32(uniforms.M);
  var ss = 0.0;
  for (var j = 0; j < uniforms.M; j++) { let d = X[o + j] - mean; ss += d * d; }
  let rstd = inverseSqrt(ss / f32(uniforms.M) + ${EPS});`;
  const y = run(new LinoLayerNormProgram({ variableNames: ['X', 'W', 'B'], outputShape: [R, M], threads: R, work: 3 * R * M, sizes: { M }, body: `${head}
  for (var j = 0; j < uniforms.M; j++) { result[o + j] = (X[o + j] - mean) * rstd * W[j] + B[j]; }` }), [x!, w!, b!]);
  const stats = run(new LinoLayerNormStatsProgram({ variableNames: ['X'], outputShape: [R, 2], threads: R, work: 2 * R * M, sizes: { M }, body: `${head}
  result[2 * index] = mean; result[2 * index + 1] = rstd;` }), [x!]);
  return [y, stats];
}, { wasm: false });

registerFusedKernel(BWD, ['dy', 'x', 'w', 'stats'], ([dy, x, w, st], [shape]) => {
  const [R, M] = shape as [number, number];
  const dx = new Float32Array(R * M);
  const dw = new Float64Array(M);
  const db = new Float64Array(M);
  for (let r = 0, o = 0; r < R; r++, o += M) {
    const mean = st![2 * r]!, rstd = st![2 * r + 1]!;
    let mg = 0, mgx = 0;
    for (let j = 0; j < M; j++) {
      const d = dy![o + j]!, xh = (x![o + j]! - mean) * rstd, g = d * w![j]!;
      mg += g; mgx += g * xh;
      dw[j] += d * xh; db[j] += d;
    }
    mg /= M; mgx /= M;
    for (let j = 0; j < M; j++) {
      const xh = (x![o + j]! - mean) * rstd;
      dx[o + j] = (dy![o + j]! * w![j]! - mg - xh * mgx) * rstd;
    }
  }
  return [{ shape: [R, M], values: dx }, { shape: [M], values: Float32Array.from(dw) }, { shape: [M], values: Float32Array.from(db) }];
}, ([dy, x, w, st], run) => {
  const [R, M] = x!.shape as [number, number];
  const names = ['DY', 'X', 'W', 'S'];
  const ins = [dy!, x!, w!, st!];
  const dx = run(new LinoLayerNormGradInputProgram({ variableNames: names, outputShape: [R, M], threads: R, work: 4 * R * M, sizes: { M }, body: `let o = index * uniforms.M;
  let mean = S[2 * index]; let rstd = S[2 * index + 1];
  var mg = 0.0; var mgx = 0.0;
  for (var j = 0; j < uniforms.M; j++) { let g = DY[o + j] * W[j]; mg += g; mgx += g * (X[o + j] - mean) * rstd; }
  mg = mg / f32(uniforms.M); mgx = mgx / f32(uniforms.M);
  for (var j = 0; j < uniforms.M; j++) { result[o + j] = (DY[o + j] * W[j] - mg - (X[o + j] - mean) * rstd * mgx) * rstd; }` }), ins);
  // column sums over all B*N rows: parallel reductions (one thread per column walking every row
  // was 5% of an H200 step at Darcy 85^2, and 708,964 rows at 421^2)
  const col = (P: typeof LinoLayerNormGradWeightProgram, term: string, termReads: number) => runReduction(run, P, {
    variableNames: names, outputShape: [M], outputs: M, length: R, layout: 'columns', termReads, term, sizes: { M },
  }, ins);
  return [dx, col(LinoLayerNormGradWeightProgram, 'DY[r * uniforms.M + o] * (X[r * uniforms.M + o] - S[2 * r]) * S[2 * r + 1]', 4), col(LinoLayerNormGradBiasProgram, 'DY[r * uniforms.M + o]', 1)];
}, { wasm: false });

registerWasmLayerNorm(FWD, BWD);

const fused2d = customGradOp((x: tf.Tensor2D, w: tf.Tensor1D, b: tf.Tensor1D, save: tf.GradSaveFunc) => {
  const [y, stats] = runFused(FWD, { x, w, b });
  save([x, w, stats!]);
  return {
    value: y!,
    gradFunc: (dy: tf.Tensor, saved: tf.Tensor[]) => {
      const [xs, ws, st] = saved as [tf.Tensor2D, tf.Tensor1D, tf.Tensor2D];
      return runFused(BWD, { dy, x: xs, w: ws, stats: st });
    },
  };
});

const ln2d = customGradOp((x: tf.Tensor2D, w: tf.Tensor1D, b: tf.Tensor1D, save: tf.GradSaveFunc) => {
  const xc = tf.sub(x, tf.mean(x, 1, true));
  const rstd = tf.rsqrt(tf.add(tf.mean(tf.square(xc), 1, true), EPS));
  const xhat = tf.mul(xc, rstd);
  save([xhat, rstd, w]);
  return {
    value: tf.add(tf.mul(xhat, w), b),
    gradFunc: (dy: tf.Tensor, saved: tf.Tensor[]) => {
      const [xh, rs, ws] = saved as [tf.Tensor2D, tf.Tensor2D, tf.Tensor1D];
      const d = dy as tf.Tensor2D;
      const g = tf.mul(d, ws);
      const dx = tf.mul(tf.sub(tf.sub(g, tf.mean(g, 1, true)), tf.mul(xh, tf.mean(tf.mul(g, xh), 1, true))), rs);
      return [dx, tf.sum(tf.mul(d, xh), 0), tf.sum(d, 0)];
    },
  };
});

/** The composed version (custom closed-form gradient), whatever the backend: the fused kernels' reference. */
export function layerNormComposed(x: tf.Tensor, weight: tf.Tensor, bias: tf.Tensor): tf.Tensor {
  const M = x.shape[x.rank - 1]!;
  const x2 = x.rank === 2 ? x : tf.reshape(x, [-1, M]);
  const y = ln2d(x2 as tf.Tensor2D, weight as tf.Tensor1D, bias as tf.Tensor1D);
  return x.rank === 2 ? y : tf.reshape(y, x.shape);
}

export function layerNorm(x: tf.Tensor, weight: tf.Tensor, bias: tf.Tensor): tf.Tensor {
  if (!hasFusedKernel(FWD)) return layerNormComposed(x, weight, bias);
  const M = x.shape[x.rank - 1]!;
  const x2 = x.rank === 2 ? x : tf.reshape(x, [-1, M]);
  const y = fused2d(x2 as tf.Tensor2D, weight as tf.Tensor1D, bias as tf.Tensor1D);
  return x.rank === 2 ? y : tf.reshape(y, x.shape);
}
