// GELU, exact erf form as PyTorch's nn.GELU() (tfjs has no GELU op). Fused where the backend has
// the kernels (cpu: JS; webgpu: WGSL): one kernel forward, one backward dy * (Phi(x) + x phi(x)).
// wasm: WebAssembly SIMD of our own (tfjs-internals/wasm-gelu.ts), one kernel writing the value and
// the slope Phi(x) + x phi(x), saved for the backward, a multiply.
// erf is Abramowitz-Stegun 7.1.26 (|error| <= 1.5e-7), as tfjs's own.
// The composed form (the fused kernels switched off, and the wasm path before its own kernels):
// a closed-form gradient and no Exp or Erf kernel: tfjs's wasm Exp
// and Erf are scalar libm loops (measured [4096, 64]: Exp 1.46 ms, Erf 0.8-3.1 ms) while its Sigmoid
// is XNNPACK's SIMD one (0.22 ms) and a multiply 0.035 ms. The one exponential both the erf and
// phi need, E = exp(-x^2/2), comes from a sigmoid: s = sigmoid(-x^2/2) <= 1/2, E = s / (1 - s)
// (1 - s >= 1/2: no cancellation); the forward saves Phi and E, the backward is four multiply-adds.
import * as tf from './tf';
import { customGradOp } from './custom-grad';
import { FusedProgram, hasFusedKernel, registerFusedKernel, runFused } from './kernel-registry';
import { registerWasmGeluSlope } from './tfjs-internals/wasm-gelu';

export class LinoGeluProgram extends FusedProgram {}
export class LinoGeluGradProgram extends FusedProgram {}

const SQRT1_2 = Math.SQRT1_2;
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

const FWD_SLOPE = 'LinoGeluSlope';
registerWasmGeluSlope(FWD_SLOPE);

const withSlope = customGradOp((x: tf.Tensor, save: tf.GradSaveFunc) => {
  const [y, d] = runFused(FWD_SLOPE, { x }) as [tf.Tensor, tf.Tensor];
  save([d]);
  return { value: y, gradFunc: (dy: tf.Tensor, saved: tf.Tensor[]) => [tf.mul(dy, saved[0]!)] };
});

const fused = customGradOp((x: tf.Tensor, save: tf.GradSaveFunc) => {
  save([x]);
  return {
    value: runFused(FWD, { x })[0]!,
    gradFunc: (dy: tf.Tensor, saved: tf.Tensor[]) => [runFused(BWD, { dy, x: saved[0]! })[0]!],
  };
});

/**
 * Phi(x) (the normal CDF, A-S 7.1.26 through erf) and E = exp(-x^2/2), in composed tf ops whose
 * only transcendental is one sigmoid: q = (poly(t) / 2) E = Phi(-|x|), Phi = q + step(x) (1 - 2q).
 * Kernels picked by measurement on wasm ([4096, 64]): Step 0.04 ms where Sign is 1.4 ms (and
 * Maximum with a scalar 2.3 ms), a division 0.05 ms where Reciprocal is 0.16 ms.
 */
function cdfAndGaussian(x: tf.Tensor): { cdf: tf.Tensor; e: tf.Tensor } {
  const s = tf.sigmoid(tf.mul(tf.square(x), -0.5));
  const e = tf.div(s, tf.sub(1, s));
  const t = tf.div(1, tf.add(tf.mul(tf.abs(x), P * SQRT1_2), 1));
  // Horner with the halves folded into the coefficients
  let poly = tf.add(tf.mul(t, A5 / 2), A4 / 2);
  for (const a of [A3, A2, A1]) poly = tf.add(tf.mul(poly, t), a / 2);
  const q = tf.mul(tf.mul(poly, t), e);
  return { cdf: tf.add(q, tf.mul(tf.step(x), tf.sub(1, tf.mul(q, 2)))), e };
}

/** Composed tf ops with the closed-form gradient, whatever the backend: the wasm path and the fused kernels' reference. */
export const geluComposed = customGradOp((x: tf.Tensor, save: tf.GradSaveFunc) => {
  const { cdf, e } = cdfAndGaussian(x);
  save([x, cdf, e]);
  return {
    value: tf.mul(x, cdf),
    gradFunc: (dy: tf.Tensor, saved: tf.Tensor[]) => {
      const [xs, c, es] = saved as [tf.Tensor, tf.Tensor, tf.Tensor];
      return [tf.mul(dy, tf.add(c, tf.mul(tf.mul(xs, es), INV_SQRT_2PI)))];
    },
  };
});

export function gelu(x: tf.Tensor): tf.Tensor {
  if (hasFusedKernel(FWD_SLOPE)) return withSlope(x);
  return hasFusedKernel(FWD) ? fused(x) : geluComposed(x);
}
