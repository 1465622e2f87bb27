// A tiled WGSL GEMM, C[s] = op(A) op(B) over the K-slice s, for tfjs-backend-webgpu 4.22:
// a 64 x TN output tile per workgroup staged through workgroup memory in K-steps of 16, each
// thread holding a 4 x 4 register block; vec4 global loads where every operand's contiguous
// axis is a multiple of 4 (a scalar variant otherwise). The sizes are uniforms, so one pipeline
// serves every batch size and grid; the shader key names only the variant. A class, because
// tfjs labels a program by constructor.name in its timers.
import { GELU_WGSL } from './gelu-wgsl';

export interface GemmVariant {
  /** A is stored [K, R] (else [R, K]). */
  transA: boolean;
  /** B is stored [N, K] (else [K, N]). */
  transB: boolean;
  /** vec4 loads (every operand's contiguous axis a multiple of 4). */
  vec4: boolean;
  /** Epilogue: + bias[n] (an input named Bias, [N]). */
  bias: boolean;
  /** Prologue: GELU of every A (or B) element as it is loaded. */
  geluA: boolean;
  geluB: boolean;
  /** Epilogue: times GELU'(Z[r, n]) (an input named Z, [R, N]). */
  geluGradZ: boolean;
  /** Output tile width: 64, or 32 for narrow products (N <= 32). */
  tileN: 32 | 64;
}

const TM = 64;
const TK = 16;

/**
 * The dims as the program reads them (uniforms): per batch entry R x K times K x N, `batch`
 * products (an operand with batch stride 0 is shared), `slices` K-slices of kPer (a multiple of 16).
 */
export interface GemmDims { R: number; K: number; N: number; slices: number; kPer: number; batch: number; aStride: number; bStride: number }

export function variantKey(v: GemmVariant): string {
  const f = (b: boolean, s: string) => (b ? s : '');
  return `lino_gemm_${v.tileN}${f(v.transA, '_ta')}${f(v.transB, '_tb')}${f(v.vec4, '_v4')}${f(v.bias, '_bias')}${f(v.geluA, '_geluA')}${f(v.geluB, '_geluB')}${f(v.geluGradZ, '_dgelu')}`;
}

export class LinoTiledGemm {
  variableNames: string[];
  variableComponents: number[];
  outputShape: number[];
  shaderKey: string;
  dispatchLayout: { x: number[]; y: number[]; z?: number[] };
  dispatch: [number, number, number];
  workgroupSize: [number, number, number];
  uniforms = 'dimR : i32, dimK : i32, dimN : i32, kPer : i32, slices : i32, aStride : i32, bStride : i32,';

  constructor(private readonly v: GemmVariant, d: GemmDims) {
    this.variableNames = ['A', 'B', ...(v.bias ? ['Bias'] : []), ...(v.geluGradZ ? ['Z'] : [])];
    this.variableComponents = this.variableNames.map((n) => (v.vec4 && (n === 'A' || n === 'B') ? 4 : 1));
    // [R, N] for one unsplit product (no reshape kernel after it), else [batch * slices, R, N]
    const z = d.batch * d.slices;
    this.outputShape = z === 1 ? [d.R, d.N] : [z, d.R, d.N];
    this.dispatchLayout = z === 1 ? { x: [1], y: [0] } : { x: [2], y: [1], z: [0] };
    this.shaderKey = variantKey(v);
    this.workgroupSize = [(v.tileN / 4) * (TM / 4), 1, 1];
    this.dispatch = [Math.ceil(d.N / v.tileN), Math.ceil(d.R / TM), z];
  }

  /** The uniform values in the order of `uniforms`. */
  static uniformData(d: GemmDims): { type: string; data: number[] }[] {
    return [d.R, d.K, d.N, d.kPer, d.slices, d.aStride, d.bStride].map((x) => ({ type: 'int32', data: [x] }));
  }

  getUserCode(): string {
    const v = this.v;
    const TN = v.tileN;
    const threads = this.workgroupSize[0];
    return `${GELU_WGSL}
const TM = ${TM};
const TN = ${TN};
const TK = ${TK};
const WX = ${TN / 4};
// vec4 tiles: a k-row of 4 consecutive outputs' operands is one workgroup-memory read
var<workgroup> As : array<vec4<f32>, ${(TK * TM) / 4}>;
var<workgroup> Bs : array<vec4<f32>, ${(TK * TN) / 4}>;
${tileLoader('A', 'As', 'TM', TM, v.transA, v.vec4, v.geluA, threads, 'uniforms.dimR')}
${tileLoader('B', 'Bs', 'TN', TN, !v.transB, v.vec4, v.geluB, threads, 'uniforms.dimN')}
fn main() {
  let R = uniforms.dimR;
  let K = uniforms.dimK;
  let N = uniforms.dimN;
  let t = i32(localIndex);
  let tx = t % WX;
  let ty = t / WX;
  let row0 = i32(workgroupId.y) * TM;
  let col0 = i32(workgroupId.x) * TN;
  // workgroup z = batch entry * slices + K-slice
  let zz = i32(workgroupId.z);
  let kStart = (zz % uniforms.slices) * uniforms.kPer;
  let aOff = (zz / uniforms.slices) * uniforms.aStride;
  let bOff = (zz / uniforms.slices) * uniforms.bStride;
  var acc : array<vec4<f32>, 4>;
  // a uniform trip count (barriers need uniform control flow); the loaders zero k >= K
  let steps = uniforms.kPer / TK;
  for (var s = 0; s < steps; s = s + 1) {
    let k0 = kStart + s * TK;
    loadA(t, row0, k0, aOff);
    loadB(t, col0, k0, bOff);
    workgroupBarrier();
    for (var k = 0; k < TK; k = k + 1) {
      let a = As[k * (TM / 4) + ty];
      let b = Bs[k * (TN / 4) + tx];
      acc[0] = fma(vec4<f32>(a.x), b, acc[0]);
      acc[1] = fma(vec4<f32>(a.y), b, acc[1]);
      acc[2] = fma(vec4<f32>(a.z), b, acc[2]);
      acc[3] = fma(vec4<f32>(a.w), b, acc[3]);
    }
    workgroupBarrier();
  }
  let base = zz * R * N;
  for (var i = 0; i < 4; i = i + 1) {
    let r = row0 + ty * 4 + i;
    if (r >= R) { break; }
    for (var j = 0; j < 4; j = j + 1) {
      let c = col0 + tx * 4 + j;
      if (c < N) {
        var o = acc[i][j];
        ${v.bias ? 'o = o + Bias[c];' : ''}
        ${v.geluGradZ ? 'o = o * linoGeluGrad(Z[r * N + c]);' : ''}
        result[base + r * N + c] = o;
      }
    }
  }
}`;
  }
}

/**
 * WGSL that fills one operand's tile, S[k * W + m] for k < TK and m < W (W = TM rows of A or
 * TN columns of B), zero outside the matrix. `mMajor`: the operand is stored with m as its
 * contiguous axis ([K, size], i.e. A transposed or B plain); otherwise [size, K].
 */
function tileLoader(name: string, tile: string, W: string, w: number, mMajor: boolean, vec4: boolean, gelu: boolean, threads: number, size: string): string {
  const loads = (w * TK) / 4 / threads; // four elements per load slot
  const g = (e: string) => (gelu ? `linoGelu(${e})` : e);
  // quad q of slot id: mMajor -> k = id / (W/4), m = 4 * (id % (W/4)); else m = id / (TK/4), k = 4 * (id % (TK/4))
  const coords = mMajor
    ? `let kk = id / (${W} / 4); let mm = 4 * (id % (${W} / 4));`
    : `let mm = id / (TK / 4); let kk = 4 * (id % (TK / 4));`;
  const gk = 'k0 + kk';
  const gm = 'm0 + mm';
  // flat index of (m, k) in the stored operand; the tile is vec4s along m (S4[(k * W + m) / 4][m % 4])
  const flat = (m: string, k: string) => (mMajor ? `off + (${k}) * ${size} + (${m})` : `off + (${m}) * K + (${k})`);
  const put = (c: number, e: string) => (mMajor ? `${tile}[(kk * ${W} + mm) / 4][${c}] = ${e};` : `${tile}[((kk + ${c}) * ${W} + mm) / 4][mm % 4] = ${e};`);
  const body = vec4
    ? `var q = vec4<f32>(0.0);
      if (${mMajor ? `${gk} < K && ${gm} < ${size}` : `${gm} < ${size} && ${gk} < K`}) { q = ${name}[(${flat(gm, gk)}) / 4]; }
      ${mMajor && !gelu ? `${tile}[(kk * ${W} + mm) / 4] = q;` : [0, 1, 2, 3].map((c) => put(c, g(`q[${c}]`))).join('\n      ')}`
    : [0, 1, 2, 3].map((c) => {
      const m = mMajor ? `${gm} + ${c}` : gm;
      const k = mMajor ? gk : `${gk} + ${c}`;
      return `{ var e = 0.0; if (${m} < ${size} && ${k} < K) { e = ${g(`${name}[${flat(m, k)}]`)}; } ${put(c, 'e')} }`;
    }).join('\n      ');
  return `fn load${name}(t : i32, m0 : i32, k0 : i32, off : i32) {
  let K = uniforms.dimK;
  for (var l = 0; l < ${loads}; l = l + 1) {
    let id = t + l * ${threads};
    ${coords}
    ${body}
  }
}`;
}
