// The efficient scattering's output, from the linear-attention numerator and denominator and the
// local branch:  y_glob = num / (qk + 1e-6);  y = (1 - beta) y_glob + beta y_loc;  out = exp(ls) (y - h),
// beta = sigmoid(gate). num: [B, N, M] (or any shape with the rows of h), qk: one value per row,
// y_loc, h: [B*N, M]; gate, ls: scalars. One fused kernel forward and one backward where the backend
// has them (cpu: JS; webgpu: WGSL; wasm: WebAssembly SIMD of our own,
// tfjs-internals/wasm-scattering-output.ts, where the composed SIMD ops had beaten the JS loop),
// composed tf ops otherwise. Gradient, with e = exp(ls), d = qk + 1e-6:
//   d num = g e (1-beta) / d;  d qk = -sum_row g e (1-beta) num / d^2;  d y_loc = g e beta;  d h = -g e;
//   d gate = sum g e (y_loc - y_glob) beta (1-beta);  d ls = sum g out.
import * as tf from './tf';
import { customGradOp } from './custom-grad';
import { FusedProgram, hasFusedKernel, registerFusedKernel, runFused, type JsKernelBody } from './kernel-registry';
import { registerWasmScatteringOutput } from './tfjs-internals/wasm-scattering-output';

export class LinoScatteringOutputProgram extends FusedProgram {}
export class LinoScatteringOutputGradNumProgram extends FusedProgram {}
export class LinoScatteringOutputGradQkProgram extends FusedProgram {}
export class LinoScatteringOutputGradLocalProgram extends FusedProgram {}
export class LinoScatteringOutputGradHProgram extends FusedProgram {}
export class LinoScatteringOutputGradGateProgram extends FusedProgram {}
export class LinoScatteringOutputGradScaleProgram extends FusedProgram {}

const EPS = 1e-6;
const FWD = 'LinoScatteringOutput';
const BWD = 'LinoScatteringOutputGrad';

const sigmoid = (x: number) => 1 / (1 + Math.exp(-x));

/** The forward's JS body (cpu; the bench's reference on wasm, where the composed ops run). */
export const scatteringOutputJs: JsKernelBody = ([num, qk, yl, h, gate, ls], shapes) => {
  const [R, M] = shapes[3] as [number, number];
  const beta = sigmoid(gate![0]!), e = Math.exp(ls![0]!);
  const out = new Float32Array(R * M);
  for (let r = 0, o = 0; r < R; r++, o += M) {
    const inv = 1 / (qk![r]! + EPS);
    for (let j = 0; j < M; j++) out[o + j] = e * ((1 - beta) * num![o + j]! * inv + beta * yl![o + j]! - h![o + j]!);
  }
  return [{ shape: [R, M], values: out }];
};

registerFusedKernel(FWD, ['num', 'qk', 'yloc', 'h', 'gate', 'ls'], scatteringOutputJs, ([num, qk, yl, h, gate, ls], run) => {
  const [R, M] = h!.shape as [number, number];
  return [run(new LinoScatteringOutputProgram({
    variableNames: ['Num', 'Qk', 'Yl', 'H', 'Gate', 'Ls'], outputShape: [R, M], threads: R * M, sizes: { M },
    body: `let beta = 1.0 / (1.0 + exp(-Gate[0]));
  result[index] = exp(Ls[0]) * ((1.0 - beta) * Num[index] / (Qk[index / uniforms.M] + ${EPS}) + beta * Yl[index] - H[index]);`,
  }), [num!, qk!, yl!, h!, gate!, ls!])];
}, { wasm: false });

registerFusedKernel(BWD, ['g', 'num', 'qk', 'yloc', 'h', 'gate', 'ls'], ([g, num, qk, yl, h, gate, ls], shapes) => {
  const [R, M] = shapes[4] as [number, number];
  const beta = sigmoid(gate![0]!), e = Math.exp(ls![0]!);
  const dnum = new Float32Array(R * M), dyl = new Float32Array(R * M), dh = new Float32Array(R * M);
  const dqk = new Float32Array(R), pg = new Float32Array(R), pl = new Float32Array(R);
  for (let r = 0, o = 0; r < R; r++, o += M) {
    const inv = 1 / (qk![r]! + EPS);
    let aq = 0, ag = 0, al = 0;
    for (let j = 0; j < M; j++) {
      const ge = g![o + j]! * e, yg = num![o + j]! * inv, y = (1 - beta) * yg + beta * yl![o + j]!;
      dnum[o + j] = ge * (1 - beta) * inv;
      dyl[o + j] = ge * beta;
      dh[o + j] = -ge;
      aq -= ge * (1 - beta) * yg * inv;
      ag += ge * (yl![o + j]! - yg);
      al += ge * (y - h![o + j]!);
    }
    dqk[r] = aq;
    pg[r] = ag * beta * (1 - beta);
    pl[r] = al;
  }
  return [
    { shape: shapes[1]!, values: dnum }, { shape: shapes[2]!, values: dqk }, { shape: [R, M], values: dyl },
    { shape: [R, M], values: dh }, { shape: [R], values: pg }, { shape: [R], values: pl },
  ];
}, ([g, num, qk, yl, h, gate, ls], run) => {
  const [R, M] = h!.shape as [number, number];
  const names = ['G', 'Num', 'Qk', 'Yl', 'H', 'Gate', 'Ls'];
  const ins = [g!, num!, qk!, yl!, h!, gate!, ls!];
  const head = `let beta = 1.0 / (1.0 + exp(-Gate[0])); let e = exp(Ls[0]);`;
  const elem = (P: typeof FusedProgram, shape: number[], expr: string) => run(new P({
    variableNames: names, outputShape: shape, threads: R * M, sizes: { M }, body: `${head}
  let inv = 1.0 / (Qk[index / uniforms.M] + ${EPS});
  result[index] = ${expr};`,
  }), ins);
  // per-row sums walk the row's M values; d gate and d ls are then tf.sum of the rows (tfjs's workgroup reduction)
  const row = (P: typeof FusedProgram, shape: number[], term: string, post: string) => run(new P({
    variableNames: names, outputShape: shape, threads: R, work: 4 * R * M, sizes: { M }, body: `${head}
  let inv = 1.0 / (Qk[index] + ${EPS});
  var acc = 0.0;
  for (var j = 0; j < uniforms.M; j++) { let i = index * uniforms.M + j; let ge = G[i] * e; let yg = Num[i] * inv; acc += ${term}; }
  result[index] = ${post};`,
  }), ins);
  return [
    elem(LinoScatteringOutputGradNumProgram, num!.shape, 'G[index] * e * (1.0 - beta) * inv'),
    row(LinoScatteringOutputGradQkProgram, qk!.shape, '-ge * (1.0 - beta) * yg * inv', 'acc'),
    elem(LinoScatteringOutputGradLocalProgram, [R, M], 'G[index] * e * beta'),
    elem(LinoScatteringOutputGradHProgram, [R, M], '-G[index] * e'),
    row(LinoScatteringOutputGradGateProgram, [R], 'ge * (Yl[i] - yg)', 'acc * beta * (1.0 - beta)'),
    row(LinoScatteringOutputGradScaleProgram, [R], 'ge * ((1.0 - beta) * yg + beta * Yl[i] - H[i])', 'acc'),
  ];
}, { wasm: false });

registerWasmScatteringOutput(FWD, BWD);

const fused = customGradOp((num: tf.Tensor, qk: tf.Tensor, yloc: tf.Tensor, h: tf.Tensor, gate: tf.Tensor, ls: tf.Tensor, save: tf.GradSaveFunc) => {
  save([num, qk, yloc, h, gate, ls]);
  return {
    value: runFused(FWD, { num, qk, yloc, h, gate, ls })[0]!,
    gradFunc: (dy: tf.Tensor, saved: tf.Tensor[]) => {
      const [n, q, y, hh, gt, l] = saved;
      const [dnum, dqk, dyl, dh, pg, pl] = runFused(BWD, { g: dy, num: n!, qk: q!, yloc: y!, h: hh!, gate: gt!, ls: l! });
      return [dnum!, dqk!, dyl!, dh!, tf.sum(pg!), tf.sum(pl!)];
    },
  };
});

/** Composed tf ops (autodiff): the fallback and the fused kernels' reference. */
export function scatteringOutputComposed(num: tf.Tensor, qk: tf.Tensor, yloc: tf.Tensor, h: tf.Tensor, gate: tf.Tensor, ls: tf.Tensor): tf.Tensor {
  const [R, M] = h.shape as [number, number];
  const yGlob = tf.reshape(tf.div(tf.reshape(num, [R, M]), tf.add(tf.reshape(qk, [R, 1]), EPS)), [R, M]);
  const beta = tf.sigmoid(gate);
  const y = tf.add(tf.mul(yGlob, tf.sub(1, beta)), tf.mul(yloc, beta));
  return tf.mul(tf.sub(y, h), tf.exp(ls));
}

/** num: R*M values (e.g. [B, N, M]), qk: R values (e.g. [B, N, 1]), yloc, h: [R, M]; gate, ls: scalars -> [R, M]. */
export function scatteringOutput(num: tf.Tensor, qk: tf.Tensor, yloc: tf.Tensor2D, h: tf.Tensor2D, gate: tf.Tensor, ls: tf.Tensor): tf.Tensor2D {
  const [R, M] = h.shape;
  if (num.size !== R * M || qk.size !== R || yloc.shape.join() !== h.shape.join() || gate.rank !== 0 || ls.rank !== 0) {
    throw new Error(`scatteringOutput: shapes num [${num.shape}], qk [${qk.shape}], yloc [${yloc.shape}], h [${h.shape}], gate [${gate.shape}], ls [${ls.shape}] do not fit rows ${R} x ${M}`);
  }
  return (hasFusedKernel(FWD) ? fused(num, qk, yloc, h, gate, ls) : scatteringOutputComposed(num, qk, yloc, h, gate, ls)) as tf.Tensor2D;
}
