// The efficient scattering's positive feature of coordinate-encoded queries/keys:
//   phi = ELU(scale * lin + c) + 1,  lin: [B*N, M] (a projection of the block input), c: [N, M]
// (the coordinate encoding, shared by the batch) -> [B, N, M]. One fused kernel forward and one
// backward where the backend has them (cpu: JS; webgpu: WGSL), composed tf ops otherwise (wasm: its
// SIMD exp beats JS Math.exp).
// Gradient, with z = scale lin + c and phi' = 1 (z > 0) or exp(z) = phi (z <= 0):
//   d lin = scale g phi';  d c = sum over the batch of g phi'.
import * as tf from './tf';
import { customGradOp } from './custom-grad';
import { FusedProgram, hasFusedKernel, registerFusedKernel, runFused } from './kernel-registry';

export class LinoPositiveFeatureProgram extends FusedProgram {}
export class LinoPositiveFeatureGradLinProgram extends FusedProgram {}
export class LinoPositiveFeatureGradCoordProgram extends FusedProgram {}

const FWD = 'LinoPositiveFeature';
const BWD = 'LinoPositiveFeatureGrad';

registerFusedKernel(FWD, ['lin', 'c'], ([lin, c], [lShape, cShape], { scale }) => {
  const [R, M] = lShape as [number, number];
  const N = cShape![0]!;
  const out = new Float32Array(R * M);
  for (let r = 0; r < R; r++) {
    const o = r * M, co = (r % N) * M;
    for (let j = 0; j < M; j++) {
      const z = scale! * lin![o + j]! + c![co + j]!;
      out[o + j] = z > 0 ? z + 1 : Math.exp(z);
    }
  }
  return [{ shape: [R / N, N, M], values: out }];
}, ([lin, c], run, { scale }) => {
  const [R, M] = lin!.shape as [number, number];
  const N = c!.shape[0]!;
  return [run(new LinoPositiveFeatureProgram({
    variableNames: ['L', 'C'], outputShape: [R / N, N, M], threads: R * M, sizes: { M, N }, scalars: { scale: scale! },
    body: `let r = index / uniforms.M;
  let z = uniforms.scale * L[index] + C[(r % uniforms.N) * uniforms.M + index % uniforms.M];
  result[index] = select(exp(z), z + 1.0, z > 0.0);`,
  }), [lin!, c!])];
}, { wasm: false });

registerFusedKernel(BWD, ['g', 'lin', 'c'], ([g, lin, c], [, lShape, cShape], { scale }) => {
  const [R, M] = lShape as [number, number];
  const N = cShape![0]!;
  const dl = new Float32Array(R * M);
  const dc = new Float32Array(N * M);
  for (let r = 0; r < R; r++) {
    const o = r * M, co = (r % N) * M;
    for (let j = 0; j < M; j++) {
      const z = scale! * lin![o + j]! + c![co + j]!;
      const dz = g![o + j]! * (z > 0 ? 1 : Math.exp(z));
      dl[o + j] = scale! * dz;
      dc[co + j] = dc[co + j]! + dz;
    }
  }
  return [{ shape: [R, M], values: dl }, { shape: [N, M], values: dc }];
}, ([g, lin, c], run, { scale }) => {
  const [R, M] = lin!.shape as [number, number];
  const N = c!.shape[0]!;
  const names = ['G', 'L', 'C'];
  const ins = [g!, lin!, c!];
  const dz = (i: string, ci: string) => `G[${i}] * select(exp(uniforms.scale * L[${i}] + C[${ci}]), 1.0, uniforms.scale * L[${i}] + C[${ci}] > 0.0)`;
  const sizes = { M, N, batch: R / N };
  const dl = run(new LinoPositiveFeatureGradLinProgram({
    variableNames: names, outputShape: [R, M], threads: R * M, sizes, scalars: { scale: scale! },
    body: `let ci = ((index / uniforms.M) % uniforms.N) * uniforms.M + index % uniforms.M;
  result[index] = uniforms.scale * ${dz('index', 'ci')};`,
  }), ins);
  // d c: one thread per (point, channel) sums over the batch (B terms, a handful)
  const dc = run(new LinoPositiveFeatureGradCoordProgram({
    variableNames: names, outputShape: [N, M], threads: N * M, work: 3 * R * M, sizes, scalars: { scale: scale! },
    body: `var acc = 0.0;
  for (var b = 0; b < uniforms.batch; b++) { let i = b * uniforms.N * uniforms.M + index; acc += ${dz('i', 'index')}; }
  result[index] = acc;`,
  }), ins);
  return [dl, dc];
}, { wasm: false });

const fusedFor = new Map<number, (lin: tf.Tensor, c: tf.Tensor) => tf.Tensor>();
function fused(scale: number) {
  let f = fusedFor.get(scale);
  if (!f) {
    f = customGradOp((lin: tf.Tensor, c: tf.Tensor, save: tf.GradSaveFunc) => {
      save([lin, c]);
      return {
        value: runFused(FWD, { lin, c }, { scale })[0]!,
        gradFunc: (dy: tf.Tensor, saved: tf.Tensor[]) => runFused(BWD, { g: dy, lin: saved[0]!, c: saved[1]! }, { scale }),
      };
    });
    fusedFor.set(scale, f);
  }
  return f;
}

/** Composed tf ops (autodiff): the fallback and the fused kernels' reference. */
export function positiveFeatureComposed(lin: tf.Tensor2D, c: tf.Tensor2D, scale: number): tf.Tensor3D {
  const [N, M] = c.shape;
  return tf.add(tf.elu(tf.add(tf.reshape(tf.mul(lin, scale), [-1, N, M]), c)), 1) as tf.Tensor3D;
}

/** lin: [B*N, M], c: [N, M] -> ELU(scale lin + c) + 1 as [B, N, M]. */
export function positiveFeature(lin: tf.Tensor2D, c: tf.Tensor2D, scale: number): tf.Tensor3D {
  const [N, M] = c.shape;
  if (lin.shape[1] !== M || lin.shape[0] % N !== 0) throw new Error(`positiveFeature: lin [${lin.shape.join(', ')}] does not fit c [${N}, ${M}]`);
  return hasFusedKernel(FWD) ? (fused(scale)(lin, c) as tf.Tensor3D) : positiveFeatureComposed(lin, c, scale);
}
