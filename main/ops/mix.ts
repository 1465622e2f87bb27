// Per-sample convex mixture of branch outputs: out[r] = sum_k alpha[b(r), k] branch_k[r], where
// the rows r of each branch [B*N, M] belong to sample b(r) = floor(r / N). One fused kernel
// forward and one backward (d branch_k = alpha_k g; d alpha[b, k] = sum over the sample's rows of
// g . branch_k) where the backend has them (cpu: JS; webgpu: WGSL; wasm: WebAssembly SIMD of our own,
// tfjs-internals/wasm-mix.ts, where the composed SIMD multiply-adds had beaten the JS loop), composed
// tf ops otherwise.
import * as tf from './tf';
import { customGradOp } from './custom-grad';
import { FusedProgram, hasFusedKernel, registerFusedKernel, runFused, runReduction } from './kernel-registry';
import { registerWasmMix } from './tfjs-internals/wasm-mix';

export class LinoMixProgram extends FusedProgram {}
export class LinoMixGradAlphaProgram extends FusedProgram {}
export class LinoMixGradBranchProgram extends FusedProgram {}

const FWD = 'LinoMix';
const BWD = 'LinoMixGrad';
const MAX_K = 3;
const branchNames = (k: number) => Array.from({ length: k }, (_, i) => `b${i}`);

registerFusedKernel(FWD, ['alpha', ...branchNames(MAX_K).map((n) => `${n}?`)], ([alpha, ...br], [aShape, bShape]) => {
  const [B, K] = aShape as [number, number];
  const size = br[0]!.length;
  const per = size / B;
  const out = new Float32Array(size);
  for (let b = 0; b < B; b++) {
    for (let k = 0; k < K; k++) {
      const a = alpha![b * K + k]!, src = br[k]!;
      for (let i = b * per; i < (b + 1) * per; i++) out[i] = out[i]! + a * src[i]!;
    }
  }
  return [{ shape: bShape!, values: out }];
}, ([alpha, ...br], run) => {
  const [B, K] = alpha!.shape as [number, number];
  const size = br[0]!.shape.reduce((a, b) => a * b, 1);
  const per = size / B;
  const names = ['Alpha', ...br.map((_, k) => `B${k}`)];
  const sum = br.map((_, k) => `Alpha[b * ${K} + ${k}] * B${k}[index]`).join(' + ');
  return [run(new LinoMixProgram({
    variableNames: names, outputShape: br[0]!.shape, threads: size, sizes: { per }, variant: `${K}`,
    body: `let b = index / uniforms.per;\n  result[index] = ${sum};`,
  }), [alpha!, ...br])];
}, { wasm: false });

registerFusedKernel(BWD, ['g', 'alpha', ...branchNames(MAX_K).map((n) => `${n}?`)], ([g, alpha, ...br], [, aShape, bShape]) => {
  const [B, K] = aShape as [number, number];
  const size = g!.length;
  const per = size / B;
  const dAlpha = new Float32Array(B * K);
  const dBr = br.map(() => new Float32Array(size));
  for (let b = 0; b < B; b++) {
    for (let k = 0; k < K; k++) {
      const a = alpha![b * K + k]!, src = br[k]!, dst = dBr[k]!;
      let acc = 0;
      for (let i = b * per; i < (b + 1) * per; i++) { dst[i] = a * g![i]!; acc += g![i]! * src[i]!; }
      dAlpha[b * K + k] = acc;
    }
  }
  return [{ shape: [B, K], values: dAlpha }, ...dBr.map((values) => ({ shape: bShape!, values }))];
}, ([g, alpha, ...br], run) => {
  const [B, K] = alpha!.shape as [number, number];
  const size = g!.shape.reduce((a, b) => a * b, 1);
  const per = size / B;
  const names = ['G', 'Alpha', ...br.map((_, k) => `B${k}`)];
  const ins = [g!, alpha!, ...br];
  // d alpha[b, k] = sum of the sample's N*M products: a parallel reduction (one thread per (b, k)
  // walking them serially was 80% of an H200 step at Darcy 85^2 M128)
  // the branch is the same for the whole workgroup (one output per workgroup): no divergence
  const accumulate = br.map((_, k) => `if (k == ${k}) { acc += G[base + r] * B${k}[base + r]; }`).join(' else ');
  const dAlpha = runReduction(run, LinoMixGradAlphaProgram, {
    variableNames: names, outputShape: [B, K], outputs: B * K, length: per, layout: 'rows', termReads: 2,
    setup: `let k = o % ${K}; let base = (o / ${K}) * uniforms.per;`, accumulate,
    sizes: { per }, variant: `${K}`,
  }, ins);
  const dBr = br.map((_, k) => run(new LinoMixGradBranchProgram({
    variableNames: names, outputShape: br[0]!.shape, threads: size, sizes: { per }, variant: `${K}_${k}`,
    body: `let b = index / uniforms.per;\n  result[index] = Alpha[b * ${K} + ${k}] * G[index];`,
  }), ins));
  return [dAlpha, ...dBr];
}, { wasm: false });

registerWasmMix(FWD, BWD);

const fusedFor = new Map<number, (alpha: tf.Tensor, ...br: tf.Tensor[]) => tf.Tensor>();
function fused(k: number) {
  let f = fusedFor.get(k);
  if (!f) {
    f = customGradOp((...args: unknown[]) => {
      const save = args.pop() as tf.GradSaveFunc;
      const ts = args as tf.Tensor[];
      save(ts);
      const named = (g?: tf.Tensor): Record<string, tf.Tensor> => {
        const m: Record<string, tf.Tensor> = { alpha: ts[0]! };
        ts.slice(1).forEach((t, i) => { m[`b${i}`] = t; });
        if (g) m.g = g;
        return m;
      };
      return {
        value: runFused(FWD, named())[0]!,
        gradFunc: (dy: tf.Tensor) => runFused(BWD, named(dy)),
      };
    });
    fusedFor.set(k, f);
  }
  return f;
}

/** Composed tf ops (autodiff): the fallback and the fused kernels' reference. */
export function mixRowsComposed(alpha: tf.Tensor2D, branches: tf.Tensor[]): tf.Tensor {
  const [B, K] = alpha.shape;
  const cols = K === 1 ? [alpha] : tf.split(alpha, K, 1);
  let mix: tf.Tensor | undefined;
  branches.forEach((b, k) => {
    const term = tf.mul(tf.reshape(b, [B, -1]), cols[k]!);
    mix = mix ? tf.add(mix, term) : term;
  });
  return tf.reshape(mix!, branches[0]!.shape);
}

/** alpha: [B, K]; branches: K tensors of one shape whose leading axis holds B equal blocks of rows. */
export function mixRows(alpha: tf.Tensor2D, branches: tf.Tensor[]): tf.Tensor {
  const K = alpha.shape[1];
  if (branches.length !== K) throw new Error(`mixRows: ${branches.length} branches for alpha with ${K} columns`);
  if (branches.some((b) => b.shape.join() !== branches[0]!.shape.join())) throw new Error('mixRows: branches differ in shape');
  if (branches[0]!.size % alpha.shape[0] !== 0) throw new Error(`mixRows: branch size ${branches[0]!.size} is not a multiple of batch ${alpha.shape[0]}`);
  if (K > MAX_K || !hasFusedKernel(FWD)) return mixRowsComposed(alpha, branches);
  return fused(K)(alpha, ...branches);
}
