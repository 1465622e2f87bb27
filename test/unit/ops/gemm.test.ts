// The tiled GEMM (main/ops/gemm) on webgpu (SwiftShader here) against tfjs's matMul on the same
// backend, at odd sizes: non-multiples of the 64 x 64 / 64 x 32 tiles, K not a multiple of 4 (the
// scalar loaders), a 1 x 1 x 1 product, 10^6-element operands, split-K weight gradients; its
// bias / GELU prologue / GELU' epilogue against composed tf ops; and the linear layers built on it
// (values and gradients) against the cpu backend's composed path.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as tf from '../../../main/ops/tf';
import { gemm, MAX_SERIAL_K, planSlices } from '../../../main/ops/gemm/gemm-kernel';
import { geluLinear, linear } from '../../../main/ops/linear';
import { countKernels } from '../../../main/ops/tfjs-internals/count-kernels';
import { webgpuUnavailable } from '../../helpers/webgpu-env';
import { relErr } from '../../helpers/parity-cases';

const skip = await webgpuUnavailable();

/** Deterministic values in [-1, 1) (an LCG), the same on every backend. */
function values(n: number, seed: number): Float32Array {
  let s = seed >>> 0;
  const out = new Float32Array(n);
  for (let i = 0; i < n; i++) { s = (Math.imul(s, 1664525) + 1013904223) >>> 0; out[i] = s / 2147483648 - 1; }
  return out;
}
const rand = (shape: number[], seed: number) => tf.tensor(values(shape.reduce((a, b) => a * b, 1), seed), shape);

async function onWebgpu<T>(f: () => Promise<T>): Promise<T> {
  assert.ok(await tf.setBackend('webgpu'));
  try { return await f(); } finally { await tf.setBackend('cpu'); }
}

test('split plan: every K-slice at most MAX_SERIAL_K long, the slices cover K', () => {
  for (const [R, K, N] of [[128, 28900, 128], [32, 708964, 32], [1, 1, 1], [256, 4097, 256], [30000, 256, 128], [64, 5000, 64]] as const) {
    const { slices, kPer } = planSlices(R, K, N);
    assert.ok(kPer <= MAX_SERIAL_K && kPer % 16 === 0, `[${R}, ${K}, ${N}]: slice length ${kPer}`);
    assert.ok(slices * kPer >= K && (slices - 1) * kPer < K, `[${R}, ${K}, ${N}]: ${slices} slices of ${kPer}`);
  }
  // the weight gradient of Darcy 85^2 B4 at M128: a 128 x 128 output (4 tiles) gets split for occupancy
  assert.ok(planSlices(128, 28900, 128).slices >= 32);
  // a forward product (K = M) is never split, nor a K within the bound (a split costs a launch)
  assert.equal(planSlices(28900, 128, 128).slices, 1);
  assert.equal(planSlices(32, 4096, 32).slices, 1);
});

// [R, K, N, transA, transB]: R x N output, inner K
const SHAPES: [number, number, number, boolean, boolean][] = [
  [1, 1, 1, false, false],
  [5, 3, 7, false, false],
  [130, 37, 65, false, true], // scalar loads, 3 x 2 tiles with ragged edges
  [100, 64, 32, false, true], // vec4, the narrow tile
  [67, 40, 20, false, false],
  [33, 1003, 17, true, false], // a transposed A with a K not a multiple of 4
  [64, 6000, 48, true, false], // split-K (K > MAX_SERIAL_K), vec4
  [8192, 128, 128, false, true], // 10^6-element input and output
  [128, 8200, 128, true, false], // 10^6-element operands, split-K weight gradient
];

test('gemm matches tf.matMul on webgpu at odd sizes', { skip: skip ?? false, timeout: 300_000 }, () => onWebgpu(async () => {
  for (const [i, [R, K, N, ta, tb]] of SHAPES.entries()) {
    const a = rand(ta ? [K, R] : [R, K], 2 * i + 1) as tf.Tensor2D;
    const b = rand(tb ? [N, K] : [K, N], 2 * i + 2) as tf.Tensor2D;
    let y: tf.Tensor | undefined;
    const counted = await countKernels(() => { y = gemm(a, b, { transA: ta, transB: tb }); });
    assert.ok((counted.byName.get('LinoGemm') ?? 0) === 1, `[${R}, ${K}, ${N}]: LinoGemm ran ${counted.byName.get('LinoGemm')} times`);
    assert.equal((counted.byName.get('LinoSplitKSum') ?? 0) === 1, planSlices(R, K, N).slices > 1, `[${R}, ${K}, ${N}]: split-K sum`);
    const ref = tf.matMul(a, b, ta, tb);
    assert.deepEqual(y!.shape, [R, N]);
    const e = relErr((await y!.data()) as Float32Array, (await ref.data()) as Float32Array);
    assert.ok(e <= 1e-5, `[${R}, ${K}, ${N}]${ta ? ' transA' : ''}${tb ? ' transB' : ''}: rel. error ${e}`);
    tf.dispose([a, b, y!, ref]);
  }
}));

// batched: [batch, R, K, N, transA, transB, shared b (2-D)]
const BATCHED: [number, number, number, number, boolean, boolean, boolean][] = [
  [3, 37, 20, 45, false, false, false],
  [2, 16, 5000, 12, true, false, false], // phi(k)^T z: K = N, split
  [4, 30, 8, 30, false, true, false], // phi(q) phi(k)^T
  [3, 21, 13, 7, false, false, true], // a weight shared by the batch
  [1, 9, 6, 5, false, false, false],
];

test('batched gemm matches tf.matMul on webgpu', { skip: skip ?? false, timeout: 300_000 }, () => onWebgpu(async () => {
  for (const [i, [B, R, K, N, ta, tb, shared]] of BATCHED.entries()) {
    const a = rand([B, ...(ta ? [K, R] : [R, K])], 50 + i) as tf.Tensor3D;
    const b = rand([...(shared ? [] : [B]), ...(tb ? [N, K] : [K, N])], 60 + i) as tf.Tensor3D;
    const y = gemm(a, b, { transA: ta, transB: tb });
    const ref = tf.matMul(a, b, ta, tb);
    assert.deepEqual(y.shape, [B, R, N]);
    const e = relErr((await y.data()) as Float32Array, (await ref.data()) as Float32Array);
    assert.ok(e <= 1e-5, `batched [${B}, ${R}, ${K}, ${N}]: rel. error ${e}`);
    tf.dispose([a, b, y, ref]);
  }
}));

const geluRef = (x: tf.Tensor) => tf.mul(tf.mul(x, 0.5), tf.add(tf.erf(tf.mul(x, Math.SQRT1_2)), 1));
const geluGradRef = (x: tf.Tensor) => tf.add(tf.mul(tf.add(tf.erf(tf.mul(x, Math.SQRT1_2)), 1), 0.5), tf.mul(x, tf.mul(tf.exp(tf.mul(tf.square(x), -0.5)), 1 / Math.sqrt(2 * Math.PI))));

test('gemm epilogues (bias, GELU\' of z) and GELU prologues match composed ops on webgpu', { skip: skip ?? false, timeout: 300_000 }, () => onWebgpu(async () => {
  const [R, K, N] = [45, 21, 70];
  const a = tf.mul(rand([R, K], 3), 3) as tf.Tensor2D;
  const w = rand([N, K], 4) as tf.Tensor2D;
  const bias = rand([N], 5);
  const z = tf.mul(rand([R, N], 6), 3);
  const checks: [string, tf.Tensor, tf.Tensor][] = [
    ['bias', gemm(a, w, { transB: true, bias }), tf.add(tf.matMul(a, w, false, true), bias)],
    ['GELU(A) + bias', gemm(a, w, { transB: true, bias, geluA: true }), tf.add(tf.matMul(geluRef(a), w, false, true), bias)],
    ['A^T GELU(B)', gemm(z as tf.Tensor2D, a, { transA: true, geluB: true }), tf.matMul(z, geluRef(a), true, false)],
    ['times GELU\'(z)', gemm(a, w, { transB: true, geluGradOf: z }), tf.mul(tf.matMul(a, w, false, true), geluGradRef(z))],
  ];
  for (const [name, got, ref] of checks) {
    const e = relErr((await got.data()) as Float32Array, (await ref.data()) as Float32Array);
    assert.ok(e <= 1e-5, `${name}: rel. error ${e}`);
  }
  tf.dispose([a, w, bias, z, ...checks.flatMap(([, g, r]) => [g, r])]);
}));

type LinearResult = { y: Float32Array; grads: Float32Array[] };

async function runLinear(geluIn: boolean, withBias: boolean, R: number): Promise<LinearResult> {
  const [inDim, outDim] = [13, 19];
  const ts = [tf.mul(rand([R, inDim], 7), 2), rand([outDim, inDim], 8), ...(withBias ? [rand([outDim], 9)] : [])];
  const f = (x: tf.Tensor, w: tf.Tensor, b?: tf.Tensor) => (geluIn ? geluLinear(x, w, b) : linear(x, w, b));
  const y = f(ts[0]!, ts[1]!, ts[2]);
  const cot = rand(y.shape, 10);
  const g = tf.grads((...xs: tf.Tensor[]) => tf.sum(tf.mul(f(xs[0]!, xs[1]!, xs[2]), cot)))(ts);
  const out = { y: (await y.data()) as Float32Array, grads: (await Promise.all(g.map((t) => t.data()))) as Float32Array[] };
  tf.dispose([...ts, y, cot, ...g]);
  return out;
}

test('linear and GELU -> linear on the GEMM: values and gradients match the cpu path', { skip: skip ?? false, timeout: 300_000 }, async () => {
  for (const [geluIn, withBias, R] of [[false, true, 37], [true, true, 37], [false, false, 5000], [true, true, 5000]] as const) {
    const ref = await runLinear(geluIn, withBias, R);
    let got: LinearResult | undefined;
    const counted = await onWebgpu(() => countKernels(async () => { got = await runLinear(geluIn, withBias, R); }));
    const name = `${geluIn ? 'GELU -> ' : ''}linear${withBias ? ' with bias' : ''}, ${R} rows`;
    assert.ok((counted.byName.get('LinoGemm') ?? 0) >= 3, `${name}: GEMM ran ${counted.byName.get('LinoGemm') ?? 0} times`);
    assert.equal(counted.byName.get('BatchMatMul') ?? 0, 0, `${name}: tfjs's matMul ran`);
    assert.equal(counted.byName.get('LinoGelu') ?? 0, 0, `${name}: a separate GELU kernel ran`);
    assert.ok(relErr(got!.y, ref.y) <= 1e-5, `${name}: forward rel. error ${relErr(got!.y, ref.y)}`);
    ref.grads.forEach((g, j) => {
      const e = relErr(got!.grads[j]!, g);
      assert.ok(e <= 1e-4, `${name}: gradient ${j} rel. error ${e}`);
    });
  }
});

test('gemm refuses mismatched operands, naming the shapes', { skip: skip ?? false }, () => onWebgpu(async () => {
  const [a, b] = [tf.zeros([3, 4]) as tf.Tensor2D, tf.zeros([5, 6]) as tf.Tensor2D];
  assert.throws(() => gemm(a, b), /gemm: inner dimensions differ: a \[3, 4\] x b \[5, 6\]/);
  assert.throws(() => gemm(a, tf.zeros([4, 6]) as tf.Tensor2D, { bias: tf.zeros([5]) }), /gemm: bias must be \[6\], got \[5\]/);
  tf.dispose([a, b]);
}));
