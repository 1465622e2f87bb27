// GELU, exact erf form as PyTorch's nn.GELU() (tfjs has no GELU op). Fused where the backend has
// the kernels (cpu: JS; webgpu: WGSL; wasm's SIMD composed ops are faster than a JS loop with exp):
// one kernel forward, one backward
// dy * (Phi(x) + x phi(x)). erf is Abramowitz-Stegun 7.1.26 (|error| <= 1.5e-7), as tfjs's own.
// Otherwise composed with the same custom gradient reusing the forward's Phi: fewer full-size
// passes than autodiff through erf (which also inserts casts and copies on wasm).
import * as tf from './tf';
import { customGradOp } from './custom-grad';
import { FusedProgram, hasFusedKernel, registerFusedKernel, runFused } from './kernel-registry';

export class LinoGeluProgram extends FusedProgram {}
export class LinoGeluGradProgram extends FusedProgram {}

const SQRT1_2 = Math.SQRT1_2;
const LOG_SQRT_2PI = 0.5 * Math.log(2 * Math.PI);
const INV_SQRT_2PI = 1 / Math.sqrt(2 * Math.PI);
const [P, A1, A2, A3, A4, A5] = [0.3275911, 0.254829592, -0.284496736, 1.421413741, -1.453152027, 1.061405429];

function erf(x: number): number {
  const a = Math.abs(x);
  const t = 1 / (1 + P * a);
  const y = 1 - (((((A5 * t + A4) * t) + A3) * t + A2) * t + A1) * t * Math.exp(-a * a);
  return x < 0 ? -y : y;
}

export const WGSL_ERF = `fn linoErf(x : f32) -> f32 {
  let a = abs(x);
  let t = 1.0 / (1.0 + ${P} * a);
  let y = 1.0 - (((((${A5} * t + ${A4}) * t) + ${A3}) * t + ${A2}) * t + ${A1}) * t * exp(-a * a);
  return select(y, -y, x < 0.0);
}`;
const FWD = 'LinoGelu';
const BWD = 'LinoGeluGrad';

registerFusedKernel(FWD, ['x'], ([x], [shape]) => {
  const y = new Float32Array(x!.length);
  for (let i = 0; i < y.length; i++) { const v = x![i]!; y[i] = 0.5 * v * (1 + erf(v * SQRT1_2)); }
  return [{ shape: shape!, values: y }];
}, ([x], run) => {
  const n = x!.shape.reduce((a, b) => a * b, 1);
  const p = new LinoGeluProgram({ variableNames: ['X'], outputShape: x!.shape, threads: n, prelude: WGSL_ERF,
    body: `let v = X[index]; result[index] = 0.5 * v * (1.0 + linoErf(v * ${SQRT1_2}));` });
  return [run(p, [x!])];
}, { wasm: false });

registerFusedKernel(BWD, ['dy', 'x'], ([dy, x], [shape]) => {
  const dx = new Float32Array(x!.length);
  for (let i = 0; i < dx.length; i++) {
    const v = x![i]!;
    dx[i] = dy![i]! * (0.5 * (1 + erf(v * SQRT1_2)) + v * INV_SQRT_2PI * Math.exp(-0.5 * v * v));
  }
  return [{ shape: shape!, values: dx }];
}, ([dy, x], run) => {
  const n = x!.shape.reduce((a, b) => a * b, 1);
  const p = new LinoGeluGradProgram({ variableNames: ['DY', 'X'], outputShape: x!.shape, threads: n, prelude: WGSL_ERF,
    body: `let v = X[index];
  result[index] = DY[index] * (0.5 * (1.0 + linoErf(v * ${SQRT1_2})) + v * ${INV_SQRT_2PI} * exp(-0.5 * v * v));` });
  return [run(p, [dy!, x!])];
}, { wasm: false });

const fused = customGradOp((x: tf.Tensor, save: tf.GradSaveFunc) => {
  save([x]);
  return {
    value: runFused(FWD, { x })[0]!,
    gradFunc: (dy: tf.Tensor, saved: tf.Tensor[]) => [runFused(BWD, { dy, x: saved[0]! })[0]!],
  };
});

/** Composed tf ops with the closed-form gradient, whatever the backend: the fused kernels' reference. */
export const geluComposed = customGradOp((x: tf.Tensor, save: tf.GradSaveFunc) => {
  const cdf = tf.mul(tf.add(tf.erf(tf.mul(x, SQRT1_2)), 1), 0.5);
  save([x, cdf]);
  return {
    value: tf.mul(x, cdf),
    gradFunc: (dy: tf.Tensor, saved: tf.Tensor[]) => {
      const [xs, c] = saved as [tf.Tensor, tf.Tensor];
      const pdf = tf.exp(tf.sub(tf.mul(tf.square(xs), -0.5), LOG_SQRT_2PI));
      return [tf.mul(dy, tf.add(c, tf.mul(xs, pdf)))];
    },
  };
});

export function gelu(x: tf.Tensor): tf.Tensor {
  return hasFusedKernel(FWD) ? fused(x) : geluComposed(x);
}
