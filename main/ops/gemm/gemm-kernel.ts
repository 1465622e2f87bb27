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

function dimsOf(a: number[], b: number[], ta: boolean, tb: boolean): { R: number; K: number; N: number } {
  if (a.length !== 2 || b.length !== 2) throw new Error(`gemm: operands must be 2-D, got [${a.join(', ')}] and [${b.join(', ')}]`);
  const [R, K] = ta ? [a[1]!, a[0]!] : [a[0]!, a[1]!];
  const [K2, N] = tb ? [b[1]!, b[0]!] : [b[0]!, b[1]!];
  if (K !== K2) throw new Error(`gemm: inner dimensions differ: a [${a.join(', ')}]${ta ? 'ᵀ' : ''} x b [${b.join(', ')}]${tb ? 'ᵀ' : ''}`);
  return { R, K, N };
}

tf.registerKernel({
  kernelName: GEMM_KERNEL, backendName: 'webgpu',
  kernelFunc: ((args: Args) => {
    const { a, b, bias, z } = args.inputs;
    const at = args.attrs;
    const [ta, tb] = [at.transA === 1, at.transB === 1];
    const { R, K, N } = dimsOf(a!.shape, b!.shape, ta, tb);
    const v: GemmVariant = {
      transA: ta, transB: tb, bias: !!bias, geluA: at.geluA === 1, geluB: at.geluB === 1, geluGradZ: !!z, tileN: tileWidth(N),
      vec4: (ta ? R : K) % 4 === 0 && (tb ? K : N) % 4 === 0,
    };
    const d: GemmDims = { R, K, N, slices: at.slices ?? 1, kPer: at.kPer ?? K };
    const ins = [a!, b!, ...(bias ? [bias] : []), ...(z ? [z] : [])];
    for (const t of ins) if (t.dtype !== 'float32') throw new Error(`gemm: inputs must be float32, got ${t.dtype}`);
    return (args.backend as Backend).runWebGPUProgram(new LinoTiledGemm(v, d), ins, 'float32', LinoTiledGemm.uniformData(d));
  }) as never,
});

tf.registerKernel({
  kernelName: SPLIT_K_SUM_KERNEL, backendName: 'webgpu',
  kernelFunc: ((args: Args) => {
    const p = args.inputs.p!;
    const [S, R, N] = p.shape as [number, number, number];
    return (args.backend as Backend).runWebGPUProgram(new LinoSplitKSum(S, R, N), [p], 'float32');
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

/** op(a) op(b) (+ bias) (* GELU'(z)) with GELU optionally applied to a's or b's elements; [R, N]. */
export function gemm(a: tf.Tensor2D, b: tf.Tensor2D, o: GemmOptions = {}): tf.Tensor2D {
  const { R, K, N } = dimsOf(a.shape, b.shape, !!o.transA, !!o.transB);
  if (o.bias && (o.bias.rank !== 1 || o.bias.shape[0] !== N)) throw new Error(`gemm: bias must be [${N}], got [${o.bias.shape.join(', ')}]`);
  if (o.geluGradOf && o.geluGradOf.shape.join() !== `${R},${N}`) throw new Error(`gemm: geluGradOf must be [${R}, ${N}], got [${o.geluGradOf.shape.join(', ')}]`);
  const flags = { transA: o.transA ? 1 : 0, transB: o.transB ? 1 : 0, geluA: o.geluA ? 1 : 0, geluB: o.geluB ? 1 : 0 };
  if (R * N === 0 || Math.ceil(R / TM) > MAX_GROUPS || Math.ceil(N / 64) > MAX_GROUPS) return fallback(a, b, o);
  const plan = K === 0 ? { slices: 1, kPer: 16 } : planSlices(R, K, N);
  const epilogue = { ...(o.bias ? { bias: o.bias } : {}), ...(o.geluGradOf ? { z: o.geluGradOf } : {}) };
  if (plan.slices === 1) {
    return tf.engine().runKernel(GEMM_KERNEL, { a, b, ...epilogue } as tf.NamedTensorMap, { ...flags, slices: 1, kPer: Math.ceil(K / 16) * 16 } as never) as tf.Tensor2D;
  }
  return tf.tidy(() => {
    const parts = tf.engine().runKernel(GEMM_KERNEL, { a, b } as tf.NamedTensorMap, { ...flags, ...plan } as never) as tf.Tensor3D;
    let y = tf.engine().runKernel(SPLIT_K_SUM_KERNEL, { p: parts } as tf.NamedTensorMap) as tf.Tensor2D;
    // a long K with an epilogue (no LiNO product has one): applied after the sum
    if (o.bias) y = tf.add(y, o.bias);
    if (o.geluGradOf) y = tf.mul(y, geluGradComposed(o.geluGradOf));
    return y;
  });
}

function geluGradComposed(z: tf.Tensor): tf.Tensor {
  const cdf = tf.mul(tf.add(tf.erf(tf.mul(z, Math.SQRT1_2)), 1), 0.5);
  return tf.add(cdf, tf.mul(z, tf.mul(tf.exp(tf.mul(tf.square(z), -0.5)), 1 / Math.sqrt(2 * Math.PI))));
}

const geluComposedFwd = (x: tf.Tensor) => tf.mul(tf.mul(x, 0.5), tf.add(tf.erf(tf.mul(x, Math.SQRT1_2)), 1));

/** tfjs's matMul with the same options, composed (shapes the GEMM's dispatch cannot take). */
function fallback(a: tf.Tensor2D, b: tf.Tensor2D, o: GemmOptions): tf.Tensor2D {
  return tf.tidy(() => {
    let y = tf.matMul(o.geluA ? geluComposedFwd(a) : a, o.geluB ? geluComposedFwd(b) : b, o.transA, o.transB) as tf.Tensor2D;
    if (o.bias) y = tf.add(y, o.bias);
    if (o.geluGradOf) y = tf.mul(y, geluGradComposed(o.geluGradOf));
    return y;
  });
}
