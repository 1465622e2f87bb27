// ops/matmul-ta.ts and ops/matmul-ab.ts on wasm: a^T b (and a's column sums) by our own kernel for
// any shape, a b (+ bias) where N is a multiple of 8 (any M: rows in fours,
// then one at a time), a b^T (+ bias, and a ReLU) for any N, by tfjs otherwise; all
// against plain loops in float64, and the kernels refuse
// shapes they cannot take.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as tf from '../../../main/ops/tf';
import '@tensorflow/tfjs-backend-wasm';
import { matMulTA } from '../../../main/ops/matmul-ta';
import { matMulAB, matMulABT } from '../../../main/ops/matmul-ab';
import { runFused } from '../../../main/ops/kernel-registry';
import { countKernels } from '../../../main/ops/tfjs-internals/count-kernels';

function reference(a: Float32Array, b: Float32Array, K: number, M: number, N: number): [number[], number[]] {
  const c = new Array<number>(M * N).fill(0);
  const s = new Array<number>(M).fill(0);
  for (let k = 0; k < K; k++) {
    for (let i = 0; i < M; i++) {
      s[i] += a[k * M + i]!;
      for (let j = 0; j < N; j++) c[i * N + j] += a[k * M + i]! * b[k * N + j]!;
    }
  }
  return [c, s];
}

const values = (n: number, seed: number) => Float32Array.from({ length: n }, (_, i) => Math.sin(i * 0.37 + seed) * 0.8);

// the tiles (M a multiple of 4, N of 8) and what is left after them: the last N mod 8 columns (in
// 16-row and 4-row blocks) and the last M mod 4 rows
for (const [K, M, N] of [[300, 8, 16], [600, 32, 64], [5, 4, 8], [50, 3, 8], [50, 8, 12], [841, 128, 2], [4, 128, 2523], [4, 841, 128], [7, 37, 21], [3, 1, 1]] as const) {
  test(`matMulTA on wasm, [${K}, ${M}]^T [${K}, ${N}]: our kernel, with column sums`, async () => {
    assert.ok(await tf.setBackend('wasm'));
    const av = values(K * M, 1), bv = values(K * N, 2);
    const a = tf.tensor2d(av, [K, M]), b = tf.tensor2d(bv, [K, N]);
    let out: tf.Tensor[] = [];
    const counted = await countKernels(async () => { out = matMulTA(a, b, true); });
    assert.deepEqual([...counted.byName], [['LinoMatMulTA', 1]]);
    const [c, s] = reference(av, bv, K, M, N);
    assert.deepEqual(out[0]!.shape, [M, N]);
    assert.deepEqual(out[1]!.shape, [M]);
    const got = [out[0]!.dataSync(), out[1]!.dataSync()];
    [c, s].forEach((want, o) => want.forEach((v, i) => assert.ok(Math.abs(got[o]![i]! - v) <= 1e-5 * (1 + Math.abs(v)), `output ${o}[${i}]: ${got[o]![i]} vs ${v}`)));
    assert.equal(matMulTA(a, b, false).length, 1);
    tf.dispose([a, b, ...out]);
  });
}

test('the wasm a^T b kernel refuses operands that differ in rows or are empty', async () => {
  assert.ok(await tf.setBackend('wasm'));
  const a = tf.zeros([10, 6]), b = tf.zeros([10, 0]), c = tf.zeros([9, 8]);
  assert.throws(() => runFused('LinoMatMulTA', { a, b: c }, { sums: 0 }), /LinoMatMulTA: expected a \[K, M\] and b \[K, N\] with M and N at least 1, got \[10, 6\] and \[9, 8\]/);
  assert.throws(() => runFused('LinoMatMulTA', { a, b }, { sums: 0 }), /LinoMatMulTA: expected .* got \[10, 6\] and \[10, 0\]/);
  assert.throws(() => matMulTA(a as tf.Tensor2D, c as tf.Tensor2D, false), /matMulTA: a \[10, 6\] and b \[9, 8\] differ in rows/);
  tf.dispose([a, b, c]);
});

for (const [M, K, N, bias, ours] of [[37, 20, 16, true, true], [8, 5, 8, false, true], [4096, 32, 32, true, true], [10, 4, 12, true, false], [10, 4, 3, false, false]] as const) {
  test(`matMulAB on wasm, [${M}, ${K}] [${K}, ${N}]${bias ? ' + bias' : ''}: ${ours ? 'our kernel' : "tfjs's product"}`, async () => {
    assert.ok(await tf.setBackend('wasm'));
    const av = values(M * K, 3), bv = values(K * N, 4), cv = values(N, 5);
    const a = tf.tensor2d(av, [M, K]), b = tf.tensor2d(bv, [K, N]), c = tf.tensor1d(cv);
    let out: tf.Tensor | undefined;
    const counted = await countKernels(async () => { out = matMulAB(a, b, bias ? c : undefined); });
    assert.equal((counted.byName.get('LinoMatMul') ?? 0) > 0, ours);
    assert.deepEqual(out!.shape, [M, N]);
    const got = out!.dataSync();
    for (let i = 0; i < M; i++) {
      for (let j = 0; j < N; j++) {
        let want = bias ? cv[j]! : 0;
        for (let k = 0; k < K; k++) want += av[i * K + k]! * bv[k * N + j]!;
        assert.ok(Math.abs(got[i * N + j]! - want) <= 1e-5 * (1 + Math.abs(want)), `[${i}, ${j}]: ${got[i * N + j]} vs ${want}`);
      }
    }
    tf.dispose([a, b, c, out!]);
  });
}

test('the wasm a b kernel refuses N not a multiple of 8, a bias of another length, and mismatched inner sizes', async () => {
  assert.ok(await tf.setBackend('wasm'));
  const a = tf.zeros([6, 5]), b12 = tf.zeros([5, 12]), b8 = tf.zeros([5, 8]), bias = tf.zeros([7]), b4 = tf.zeros([4, 8]);
  assert.throws(() => runFused('LinoMatMul', { a, b: b12 }), /LinoMatMul: expected a \[M, K\], b \[K, N\] with N a multiple of 8 \(and bias \[N\]\), got \[6, 5\] and \[5, 12\]/);
  assert.throws(() => runFused('LinoMatMul', { a, b: b8, bias }), /got \[6, 5\] and \[5, 8\] and bias \[7\]/);
  assert.throws(() => matMulAB(a as tf.Tensor2D, b4 as tf.Tensor2D), /matMulAB: a \[6, 5\] and b \[4, 8\] differ in the inner size/);
  tf.dispose([a, b12, b8, bias, b4]);
});

// odd N: the last column alone, in the 4-row tiles and in the last rows (M mod 4); relu: max(0, .)
for (const [M, K, N, bias, relu] of [[37, 20, 16, true, false], [8, 4, 2, false, false], [4099, 32, 32, true, false], [6, 128, 10, true, false], [10, 5, 12, true, false], [7, 2523, 128, true, false], [5, 1, 4, false, false], [10, 4, 3, false, false], [4, 128, 841, false, false], [7, 9, 1, true, false], [9, 6, 5, true, true], [37, 20, 16, true, true], [4099, 32, 32, true, true]] as const) {
  test(`matMulABT on wasm, [${M}, ${K}] [${N}, ${K}]^T${bias ? ' + bias' : ''}${relu ? ', ReLU' : ''}: our kernel`, async () => {
    assert.ok(await tf.setBackend('wasm'));
    const av = values(M * K, 6), bv = values(N * K, 7), cv = values(N, 8);
    const a = tf.tensor2d(av, [M, K]), b = tf.tensor2d(bv, [N, K]), c = tf.tensor1d(cv);
    let out: tf.Tensor | undefined;
    const counted = await countKernels(async () => { out = matMulABT(a, b, bias ? c : undefined, relu); });
    assert.equal(counted.byName.get('LinoMatMulBT'), 1);
    assert.equal(counted.total, 1);
    assert.deepEqual(out!.shape, [M, N]);
    const got = out!.dataSync();
    let clamped = 0;
    for (let i = 0; i < M; i++) {
      for (let j = 0; j < N; j++) {
        let want = bias ? cv[j]! : 0;
        for (let k = 0; k < K; k++) want += av[i * K + k]! * bv[j * K + k]!;
        if (relu && want < 0) { want = 0; clamped++; }
        assert.ok(Math.abs(got[i * N + j]! - want) <= 1e-5 * (1 + Math.abs(want)), `[${i}, ${j}]: ${got[i * N + j]} vs ${want}`);
      }
    }
    if (relu) assert.ok(clamped > 0, 'some values must be negative before the ReLU');
    tf.dispose([a, b, c, out!]);
  });
}

test('matMulABT with a ReLU off the wasm kernel: tfjs\'s product, then its Relu', async () => {
  assert.ok(await tf.setBackend('cpu'));
  const a = tf.tensor2d([[1, -2], [3, 4]]), b = tf.tensor2d([[1, 1], [-1, 0]]);
  assert.deepEqual(Array.from(matMulABT(a, b, undefined, true).dataSync()), [0, 0, 7, 0]);
  assert.deepEqual(Array.from(matMulABT(a, b).dataSync()), [-1, -1, 7, -3]);
  tf.dispose([a, b]);
  assert.ok(await tf.setBackend('wasm'));
});

test('the wasm a b^T kernel refuses an empty b, a bias of another length, and mismatched inner sizes', async () => {
  assert.ok(await tf.setBackend('wasm'));
  const a = tf.zeros([6, 8]), a5 = tf.zeros([6, 5]), b5 = tf.zeros([4, 5]), b3 = tf.zeros([0, 8]), b4 = tf.zeros([4, 8]), bias = tf.zeros([7]);
  assert.throws(() => runFused('LinoMatMulBT', { a, b: b3 }), /LinoMatMulBT: expected a \[M, K\], b \[N, K\] with N at least 1 \(and bias \[N\]\), got \[6, 8\] and \[0, 8\]/);
  assert.throws(() => runFused('LinoMatMulBT', { a: a5, b: b4 }), /got \[6, 5\] and \[4, 8\]/);
  assert.throws(() => runFused('LinoMatMulBT', { a, b: b4, bias }), /got \[6, 8\] and \[4, 8\] and bias \[7\]/);
  assert.throws(() => matMulABT(a5 as tf.Tensor2D, b4 as tf.Tensor2D), /matMulABT: a \[6, 5\] and b \[4, 8\] differ in the inner size/);
  tf.dispose([a, a5, b5, b3, b4, bias]);
});
