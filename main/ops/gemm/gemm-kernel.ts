// The tiled GEMM as tfjs kernels on webgpu only (cpu and wasm keep tfjs's matMul): 'LinoGemm'
// (one LinoTiledGemm program; [S, R, N] partial products when split over K) and 'LinoSplitKSum'
// (their sum). gemm() plans the split and runs them through the engine, so they are counted and
// profiled like any kernel. Split-K keeps every thread's serial walk under MAX_SERIAL_K and gives
// small outputs with a long K (the weight gradients, K = B*N) enough workgroups to fill a GPU.
import * as tf from '../tf';
import { LinoTiledGemm, type GemmDims, type GemmVariant } from './tiled-gemm-program';
import { LinoSplitKSum } from './split-k-sum-program';

export const GEMM_KERNEL = 'LinoGemm';
export const SPLIT_K_SUM_KERNEL = 'LinoSplitKSum';
/** No thread walks more than this many K elements serially. */
export const MAX_SERIAL_K = 4096;
/** A K over MAX_SERIAL_K is split until the dispatch has about this many workgroups (or slices reach MIN_SLICE_K). */
const TARGET_WORKGROUPS = 256;
const MIN_SLICE_K = 256;
/** WebGPU's guaranteed maxComputeWorkgroupsPerDimension. */
const MAX_GROUPS = 65535;
const TM = 64;

export interface GemmOptions {
  /** a is stored [K, R] (else [R, K]). */
  transA?: boolean;
  /** b is stored [N, K] (else [K, N]). */
  transB?: boolean;
  /** + bias[n], bias [N]. */
  bias?: tf.Tensor;
  /** GELU applied to a's (or b's) elements as they are read. */
  geluA?: boolean;
  geluB?: boolean;
  /** Times GELU'(z[r, n]), z [R, N] (the GELU gradient of a pre-activation z). */
  geluGradOf?: tf.Tensor;
}

export const tileWidth = (N: number): 32 | 64 => (N <= 32 ? 32 : 64);

/** K-slices for an R x N output with inner dimension K: kPer a multiple of 16, at most MAX_SERIAL_K. */
export function planSlices(R: number, K: number, N: number): { slices: number; kPer: number } {
  const tiles = Math.ceil(R / TM) * Math.ceil(N / tileWidth(N));
  // K <= MAX_SERIAL_K stays whole: a split costs a second launch, which small (launch-bound) steps feel
  if (K <= MAX_SERIAL_K) return { slices: 1, kPer: Math.max(16, Math.ceil(K / 16) * 16) };
  const byFill = Math.min(Math.ceil(K / MIN_SLICE_K), Math.ceil(TARGET_WORKGROUPS / tiles));
  const want = Math.max(Math.ceil(K / MAX_SERIAL_K), byFill);
  const kPer = Math.max(16, Math.ceil(Math.ceil(K / want) / 16) * 16);
  return { slices: Math.max(1, Math.ceil(K / kPer)), kPer };
}

type Backend = { runWebGPUProgram(p: object, inputs: tf.TensorInfo[], dtype: string, uniforms?: object[]): tf.TensorInfo };
type Args = { inputs: Record<string, tf.TensorInfo | undefined>; backend: unknown; attrs: Record<string, number> };

/** Per-entry dims of op(a) op(b) and the batch (a 2-D operand, or a batch of 1, is shared by every entry). */
function dimsOf(a: number[], b: number[], ta: boolean, tb: boolean): { R: number; K: number; N: number; batch: number; aStride: number; bStride: number } {
  const rankOk = (s: number[]) => s.length === 2 || s.length === 3;
  if (!rankOk(a) || !rankOk(b)) throw new Error(`gemm: operands must be 2-D or 3-D, got [${a.join(', ')}] and [${b.join(', ')}]`);
  const [a2, b2] = [a.slice(-2), b.slice(-2)];
  const [R, K] = ta ? [a2[1]!, a2[0]!] : [a2[0]!, a2[1]!];
  const [K2, N] = tb ? [b2[1]!, b2[0]!] : [b2[0]!, b2[1]!];
  if (K !== K2) throw new Error(`gemm: inner dimensions differ: a [${a.join(', ')}]${ta ? 'ᵀ' : ''} x b [${b.join(', ')}]${tb ? 'ᵀ' : ''}`);
  const [ba, bb] = [a.length === 3 ? a[0]! : 1, b.length === 3 ? b[0]! : 1];
  if (ba !== bb && ba !== 1 && bb !== 1) throw new Error(`gemm: batch sizes differ: a [${a.join(', ')}], b [${b.join(', ')}]`);
  return { R, K, N, batch: Math.max(ba, bb), aStride: ba === 1 ? 0 : R * K, bStride: bb === 1 ? 0 : K * N };
}

tf.registerKernel({
  kernelName: GEMM_KERNEL, backendName: 'webgpu',
  kernelFunc: ((args: Args) => {
    const { a, b, bias, z } = args.inputs;
    const at = args.attrs;
    const [ta, tb] = [at.transA === 1, at.transB === 1];
    const { R, K, N, batch, aStride, bStride } = dimsOf(a!.shape, b!.shape, ta, tb);
    const v: GemmVariant = {
      transA: ta, transB: tb, bias: !!bias, geluA: at.geluA === 1, geluB: at.geluB === 1, geluGradZ: !!z, tileN: tileWidth(N),
      vec4: (ta ? R : K) % 4 === 0 && (tb ? K : N) % 4 === 0,
    };
    const d: GemmDims = { R, K, N, slices: at.slices ?? 1, kPer: at.kPer ?? K, batch, aStride, bStride };
    const ins = [a!, b!, ...(bias ? [bias] : []), ...(z ? [z] : [])];
    for (const t of ins) if (t.dtype !== 'float32') throw new Error(`gemm: inputs must be float32, got ${t.dtype}`);
    return (args.backend as Backend).runWebGPUProgram(new LinoTiledGemm(v, d), ins, 'float32', LinoTiledGemm.uniformData(d));
  }) as never,
});

tf.registerKernel({
  kernelName: SPLIT_K_SUM_KERNEL, backendName: 'webgpu',
  kernelFunc: ((args: Args) => {
    const p = args.inputs.p!;
    const [, R, N] = p.shape as [number, number, number];
    const batch = args.attrs.batch ?? 1;
    return (args.backend as Backend).runWebGPUProgram(new LinoSplitKSum(batch, R, N), [p], 'float32', [{ type: 'int32', data: [args.attrs.slices!] }]);
  }) as never,
});

/** Whether gemm() runs on the active backend (webgpu, and not turned off for an A/B run). */
export function gemmAvailable(): boolean {
  return gemmEnabled && tf.getBackend() === 'webgpu';
}

let gemmEnabled = true;
/** Turns the tiled GEMM off (tfjs's matMul on webgpu too): for A/B benches and parity tests. */
export function setGemm(on: boolean): void {
  gemmEnabled = on;
}

/**
 * op(a) op(b) (+ bias) (* GELU'(z)) with GELU optionally applied to a's or b's elements: [R, N];
 * batched ([B, R, N]) when either operand is 3-D.
 */
export function gemm<T extends tf.Tensor2D | tf.Tensor3D>(a: T, b: tf.Tensor2D | tf.Tensor3D, o: GemmOptions = {}): T {
  const { R, K, N, batch } = dimsOf(a.shape, b.shape, !!o.transA, !!o.transB);
  const batched = a.rank === 3 || b.rank === 3;
  if (batched && o.geluGradOf) throw new Error('gemm: geluGradOf is for 2-D products only');
  if (o.bias && (o.bias.rank !== 1 || o.bias.shape[0] !== N)) throw new Error(`gemm: bias must be [${N}], got [${o.bias.shape.join(', ')}]`);
  if (o.geluGradOf && o.geluGradOf.shape.join() !== `${R},${N}`) throw new Error(`gemm: geluGradOf must be [${R}, ${N}], got [${o.geluGradOf.shape.join(', ')}]`);
  const flags = { transA: o.transA ? 1 : 0, transB: o.transB ? 1 : 0, geluA: o.geluA ? 1 : 0, geluB: o.geluB ? 1 : 0 };
  if (batch * R * N === 0 || Math.ceil(R / TM) > MAX_GROUPS || Math.ceil(N / 32) > MAX_GROUPS) return fallback(a, b, o) as T;
  // the batch entries' tiles count toward filling the GPU
  const plan = K === 0 ? { slices: 1, kPer: 16 } : planSlices(R * batch, K, N);
  if (batch * plan.slices > MAX_GROUPS) return fallback(a, b, o) as T;
  const epilogue = { ...(o.bias ? { bias: o.bias } : {}), ...(o.geluGradOf ? { z: o.geluGradOf } : {}) };
  if (plan.slices === 1) {
    const y = tf.engine().runKernel(GEMM_KERNEL, { a, b, ...epilogue } as tf.NamedTensorMap, { ...flags, slices: 1, kPer: Math.ceil(K / 16) * 16 } as never) as T;
    // one batch entry shared by a 2-D and a [1, ., .] operand: the kernel writes [R, N]
    return (batched && y.rank === 2 ? tf.reshape(y, [1, R, N]) : y) as T;
  }
  return tf.tidy(() => {
    const parts = tf.engine().runKernel(GEMM_KERNEL, { a, b } as tf.NamedTensorMap, { ...flags, ...plan } as never) as tf.Tensor3D;
    let y = tf.engine().runKernel(SPLIT_K_SUM_KERNEL, { p: parts } as tf.NamedTensorMap, { slices: plan.slices, batch } as never) as tf.Tensor;
    if (batched && y.rank === 2) y = tf.reshape(y, [1, R, N]);
    // a long K with an epilogue (no LiNO product has one): applied after the sum
    if (o.bias) y = tf.add(y, o.bias);
    if (o.geluGradOf) y = tf.mul(y, geluGradComposed(o.geluGradOf));
    return y as T;
  });
}

function geluGradComposed(z: tf.Tensor): tf.Tensor {
  const cdf = tf.mul(tf.add(tf.erf(tf.mul(z, Math.SQRT1_2)), 1), 0.5);
  return tf.add(cdf, tf.mul(z, tf.mul(tf.exp(tf.mul(tf.square(z), -0.5)), 1 / Math.sqrt(2 * Math.PI))));
}

const geluComposedFwd = (x: tf.Tensor) => tf.mul(tf.mul(x, 0.5), tf.add(tf.erf(tf.mul(x, Math.SQRT1_2)), 1));

/** tfjs's matMul with the same options, composed (shapes the GEMM's dispatch cannot take). */
function fallback(a: tf.Tensor, b: tf.Tensor, o: GemmOptions): tf.Tensor {
  return tf.tidy(() => {
    let y = tf.matMul(o.geluA ? geluComposedFwd(a) : a, o.geluB ? geluComposedFwd(b) : b, o.transA, o.transB) as tf.Tensor;
    if (o.bias) y = tf.add(y, o.bias);
    if (o.geluGradOf) y = tf.mul(y, geluGradComposed(o.geluGradOf));
    return y;
  });
}
