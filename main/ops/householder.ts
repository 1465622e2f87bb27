// Rank-one deformation of each row along its own unit normal, the reflection and refraction maths:
//   out = h + c <h, vhat> vhat,  vhat = v / max(|v|, 1e-6)   (c = -2: reflection; c = eta - 1: refraction)
// h, v: [..., M] (same shape), c: scalar tensor. One fused kernel forward and one backward where
// the backend has them (cpu: JS; webgpu: WGSL; wasm: WebAssembly SIMD of our own,
// tfjs-internals/wasm-householder.ts, where the composed SIMD ops had beaten the JS loop 2-4x per
// call), composed tf ops otherwise.
// Gradient, with s = <h, vhat>, t = <g, vhat>, n = max(|v|, 1e-6):
//   dh = g + c t vhat;  dvhat = c (s g + t h);  dv = (dvhat - <dvhat, vhat> vhat) / n  (|v| > 1e-6; else dvhat / 1e-6);
//   dc = sum_rows s t.
import * as tf from './tf';
import { customGradOp } from './custom-grad';
import { unitNormalize } from './unit-normalize';
import { rowDot } from './row-dot';
import { FusedProgram, hasFusedKernel, registerFusedKernel, runFused, type JsKernelBody } from './kernel-registry';
import { registerWasmHouseholder } from './tfjs-internals/wasm-householder';

export class LinoHouseholderProgram extends FusedProgram {}
export class LinoHouseholderGradHProgram extends FusedProgram {}
export class LinoHouseholderGradVProgram extends FusedProgram {}
export class LinoHouseholderGradCProgram extends FusedProgram {}

const EPS = 1e-6;
const FWD = 'LinoHouseholder';
const BWD = 'LinoHouseholderGrad';

function rowsOf(shape: number[]): [number, number] {
  const M = shape[shape.length - 1]!;
  return [shape.reduce((a, b) => a * b, 1) / M, M];
}

/** The forward's JS body (cpu; the bench's reference on wasm, where the composed ops run). */
export const householderJs: JsKernelBody = ([h, v, c], [shape]) => {
  const [R, M] = rowsOf(shape!);
  const out = new Float32Array(R * M);
  const cc = c![0]!;
  for (let r = 0, o = 0; r < R; r++, o += M) {
    let vv = 0, hv = 0;
    for (let j = 0; j < M; j++) { vv += v![o + j]! * v![o + j]!; hv += h![o + j]! * v![o + j]!; }
    const n = Math.max(Math.sqrt(vv), EPS);
    const k = (cc * hv) / (n * n);
    for (let j = 0; j < M; j++) out[o + j] = h![o + j]! + k * v![o + j]!;
  }
  return [{ shape: shape!, values: out }];
};

registerFusedKernel(FWD, ['h', 'v', 'c'], householderJs, ([h, v, c], run) => {
  const [R, M] = rowsOf(h!.shape);
  const body = `let o = index * uniforms.M;
  var vv = 0.0; var hv = 0.0;
  for (var j = 0; j < uniforms.M; j++) { vv += V[o + j] * V[o + j]; hv += H[o + j] * V[o + j]; }
  let n = max(sqrt(vv), ${EPS});
  let k = C[0] * hv / (n * n);
  for (var j = 0; j < uniforms.M; j++) { result[o + j] = H[o + j] + k * V[o + j]; }`;
  // one thread per row walks its M values
  return [run(new LinoHouseholderProgram({ variableNames: ['H', 'V', 'C'], outputShape: h!.shape, threads: R, work: 3 * R * M, sizes: { M }, body }), [h!, v!, c!])];
}, { wasm: false });

registerFusedKernel(BWD, ['g', 'h', 'v', 'c'], ([g, h, v, c], [shape]) => {
  const [R, M] = rowsOf(shape!);
  const dh = new Float32Array(R * M);
  const dv = new Float32Array(R * M);
  const p = new Float32Array(R);
  const cc = c![0]!;
  for (let r = 0, o = 0; r < R; r++, o += M) {
    let vv = 0, hv = 0, gv = 0;
    for (let j = 0; j < M; j++) { const vj = v![o + j]!; vv += vj * vj; hv += h![o + j]! * vj; gv += g![o + j]! * vj; }
    const norm = Math.sqrt(vv);
    const n = Math.max(norm, EPS);
    const s = hv / n, t = gv / n;
    p[r] = s * t;
    const inner = norm > EPS ? 2 * cc * s * t : 0; // <dvhat, vhat>, projected out only where the norm is not clamped
    for (let j = 0; j < M; j++) {
      const vh = v![o + j]! / n;
      dh[o + j] = g![o + j]! + cc * t * vh;
      dv[o + j] = (cc * (s * g![o + j]! + t * h![o + j]!) - inner * vh) / n;
    }
  }
  return [{ shape: shape!, values: dh }, { shape: shape!, values: dv }, { shape: [R], values: p }];
}, ([g, h, v, c], run) => {
  const [R, M] = rowsOf(h!.shape);
  const head = `let o = index * uniforms.M;
  var vv = 0.0; var hv = 0.0; var gv = 0.0;
  for (var j = 0; j < uniforms.M; j++) { let vj = V[o + j]; vv += vj * vj; hv += H[o + j] * vj; gv += G[o + j] * vj; }
  let norm = sqrt(vv);
  let n = max(norm, ${EPS});
  let s = hv / n; let t = gv / n; let cc = C[0];`;
  const names = ['G', 'H', 'V', 'C'];
  const ins = [g!, h!, v!, c!];
  const row = (P: typeof LinoHouseholderProgram, shape: number[], tail: string) => run(new P({
    variableNames: names, outputShape: shape, threads: R, work: 5 * R * M, sizes: { M }, body: `${head}\n  ${tail}`,
  }), ins);
  // d c = sum over rows of s t: the rows' values here, summed by tf.sum (tfjs's workgroup reduction)
  const dh = row(LinoHouseholderGradHProgram, h!.shape, `
  for (var j = 0; j < uniforms.M; j++) { result[o + j] = G[o + j] + cc * t * V[o + j] / n; }`);
  const dv = row(LinoHouseholderGradVProgram, h!.shape, `var inner = 0.0; if (norm > ${EPS}) { inner = 2.0 * cc * s * t; }
  for (var j = 0; j < uniforms.M; j++) { result[o + j] = (cc * (s * G[o + j] + t * H[o + j]) - inner * V[o + j] / n) / n; }`);
  const p = row(LinoHouseholderGradCProgram, [R], 'result[index] = s * t;');
  return [dh, dv, p];
}, { wasm: false });

registerWasmHouseholder(FWD, BWD);

const fused = customGradOp((h: tf.Tensor, v: tf.Tensor, c: tf.Tensor, save: tf.GradSaveFunc) => {
  save([h, v, c]);
  return {
    value: runFused(FWD, { h, v, c })[0]!,
    gradFunc: (dy: tf.Tensor, saved: tf.Tensor[]) => {
      const [hs, vs, cs] = saved as [tf.Tensor, tf.Tensor, tf.Tensor];
      const [dh, dv, p] = runFused(BWD, { g: dy, h: hs, v: vs, c: cs });
      return [dh!, dv!, tf.sum(p!)];
    },
  };
});

/** The same maths in composed tf ops (autodiff): the fallback, and the reference the fused kernels are tested against. */
export function householderComposed(h: tf.Tensor, v: tf.Tensor, c: tf.Tensor | number): tf.Tensor {
  const vhat = unitNormalize(v, EPS);
  return tf.add(h, tf.mul(tf.mul(rowDot(h, vhat), c), vhat));
}

/** h + c <h, vhat> vhat per row; h, v: [..., M], c: scalar (tensor or number). */
export function householder(h: tf.Tensor, v: tf.Tensor, c: tf.Tensor | number): tf.Tensor {
  if (h.shape.join() !== v.shape.join()) throw new Error(`householder: h [${h.shape.join(', ')}] and v [${v.shape.join(', ')}] differ`);
  if (!hasFusedKernel(FWD)) return householderComposed(h, v, c);
  const ct = typeof c === 'number' ? tf.scalar(c) : c;
  if (ct.rank !== 0) throw new Error(`householder: c must be a scalar, got shape [${ct.shape.join(', ')}]`);
  return fused(h, v, ct);
}
