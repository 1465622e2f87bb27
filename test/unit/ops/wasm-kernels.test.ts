// The wasm kernels registered over tfjs's own (zero-copy Identity/Cast, heap-local Slice) give
// the same values as the cpu backend, and fall back to the originals where they do not apply.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as tf from '../../../main/ops/tf';
import '@tensorflow/tfjs-backend-wasm';
import { asBatchedSwap, ensureFastWasmKernels } from '../../../main/ops/tfjs-internals/wasm-kernels';
import { countKernels } from '../../../main/ops/tfjs-internals/count-kernels';
import { bmm } from '../../../main/ops/batch-matmul';

test('patched wasm Slice/Identity/Cast agree with cpu; Identity shares the buffer', async () => {
  ensureFastWasmKernels();
  const vals = Float32Array.from({ length: 3 * 5 * 4 }, (_, i) => i * 0.5 - 7);
  const cases: [number[], number[]][] = [
    [[1, 0, 0], [2, 5, 4]], // contiguous (batch rows)
    [[0, 2, 0], [1, 2, 4]], // contiguous inside one sample
    [[0, 1, 1], [3, 3, 2]], // strided: original kernel
    [[2, 4, 3], [1, 1, 1]],
  ];
  const run = async (backend: string) => {
    assert.ok(await tf.setBackend(backend));
    const x = tf.tensor3d(vals, [3, 5, 4]);
    const out = cases.map(([b, s]) => Array.from(tf.slice(x, b, s).dataSync()));
    out.push(Array.from(tf.cast(tf.mul(x, 0.3), 'int32').dataSync()));
    out.push(Array.from(tf.cast(x, 'float32').dataSync()));
    const c = tf.clone(x);
    const shared = c.dataId === x.dataId;
    x.dispose();
    out.push(Array.from(c.dataSync())); // the shared buffer outlives x
    c.dispose();
    return { out, shared };
  };
  const cpu = await run('cpu');
  const wasm = await run('wasm');
  assert.deepEqual(wasm.out, cpu.out);
  assert.equal(wasm.shared, true, 'clone on wasm copied the buffer');
  // gradients through slices (the per-sample products use them) still flow
  const g = tf.grad((t: tf.Tensor) => tf.sum(tf.square(tf.slice(t, [1, 0, 0], [1, 5, 4]))))(tf.tensor3d(vals, [3, 5, 4]));
  const gv = g.dataSync();
  assert.equal(gv[0], 0);
  assert.equal(gv[20], 2 * vals[20]!);
});

test('patched wasm Transpose agrees with cpu on every permutation it takes and falls back on the rest', async () => {
  ensureFastWasmKernels();
  // 128-row multiples run on the [rows/64, 64, cols] view (2-D, batched, merged axes, size-1 axes); the rest as they are
  const cases: [number[], number[]][] = [
    [[256, 40], [1, 0]], [[3, 128, 33], [0, 2, 1]], [[2, 128, 2, 5], [0, 3, 1, 2]], [[128, 1, 7], [2, 1, 0]],
    [[1, 256, 3], [0, 2, 1]], [[5, 7], [1, 0]], [[2, 3, 4], [2, 1, 0]], [[2, 3, 4, 5], [1, 0, 3, 2]],
  ];
  const run = async (backend: string) => {
    assert.ok(await tf.setBackend(backend));
    return cases.map(([shape, perm]) => {
      const n = shape.reduce((a, b) => a * b, 1);
      const x = tf.tensor(Float32Array.from({ length: n }, (_, i) => i * 0.25 - 3), shape);
      const y = tf.transpose(x, perm);
      const out = { shape: y.shape, values: Array.from(y.dataSync()) };
      tf.dispose([x, y]);
      return out;
    });
  };
  assert.deepEqual(await run('wasm'), await run('cpu'));
});

test('asBatchedSwap finds the [batch, rows, cols] swap of a permutation, or null', () => {
  assert.deepEqual(asBatchedSwap([6, 4], [1, 0]), [1, 6, 4]);
  assert.deepEqual(asBatchedSwap([2, 6, 4], [0, 2, 1]), [2, 6, 4]);
  assert.deepEqual(asBatchedSwap([2, 6, 4, 5], [2, 3, 0, 1]), [1, 12, 20]);
  assert.deepEqual(asBatchedSwap([2, 6, 1, 4], [0, 3, 2, 1]), [2, 6, 4]);
  assert.equal(asBatchedSwap([2, 3, 4], [2, 1, 0]), null);
  assert.equal(asBatchedSwap([2, 3, 4], [0, 1, 2]), null);
  assert.equal(asBatchedSwap([2, 3, 4], [1, 0, 2]), null); // leading swap with a trailing batch
});

test('patched wasm Sum and Mean over axes that are not the innermost agree with cpu and free their transpose', async () => {
  ensureFastWasmKernels();
  // [*, 128k, *] reductions transpose on the [rows/64, 64, cols] view first; the others as they are
  const cases: [number[], number | number[], boolean][] = [
    [[2, 128, 3], 1, false], [[2, 128, 3], 1, true], [[256, 5], 0, true], [[2, 256, 4], [0, 1], false],
    [[3, 5, 4], 1, true], [[3, 5, 4], 2, false], [[128, 2, 3], [0], false],
  ];
  const run = async (backend: string) => {
    assert.ok(await tf.setBackend(backend));
    const ids = tf.backend().numDataIds();
    const out = cases.flatMap(([shape, axis, keepDims]) => {
      const n = shape.reduce((a, b) => a * b, 1);
      const x = tf.tensor(Float32Array.from({ length: n }, (_, i) => ((i * 37) % 101) * 0.125 - 6), shape);
      const ys = [tf.sum(x, axis, keepDims), tf.mean(x, axis, keepDims)];
      const r = ys.map((y) => ({ shape: y.shape, values: Array.from(y.dataSync()).map((v) => Math.round(v * 1e4) / 1e4) }));
      tf.dispose([x, ...ys]);
      return r;
    });
    assert.equal(tf.backend().numDataIds(), ids, `${backend}: buffers left behind`);
    return out;
  };
  assert.deepEqual(await run('wasm'), await run('cpu'));
});

test('wasm LinoSampleMatMul (per-sample views, no copies) agrees with cpu, forward and gradients, and leaves no buffer behind', async () => {
  ensureFastWasmKernels();
  // [a shape, b shape, transposeA, transposeB]: 128-row transposes (the fast Transpose's view),
  // size-1 sides (no transpose run), one sample, odd sizes; a^T b with 4 | n and 8 | m (our own
  // kernel, wasm-matmul.ts, also as the gradient of a plain product)
  const cases: [number[], number[], boolean, boolean][] = [
    [[2, 10, 4], [2, 10, 8], true, false], [[2, 6, 4], [2, 4, 8], false, false],
    [[3, 5, 4], [3, 4, 6], false, false], [[2, 128, 3], [2, 128, 5], true, false], [[2, 7, 3], [2, 5, 3], false, true],
    [[4, 1, 9], [4, 1, 2], true, false], [[2, 6, 1], [2, 1, 4], false, false], [[1, 256, 4], [1, 3, 4], false, true], [[3, 9, 2], [3, 9, 1], true, false],
  ];
  const run = async (backend: string) => {
    assert.ok(await tf.setBackend(backend));
    const ids = tf.backend().numDataIds();
    const out = cases.map(([sa, sb, ta, tb]) => {
      const t = (s: number[], k: number) => tf.tensor(Float32Array.from({ length: s.reduce((p, q) => p * q, 1) }, (_, i) => ((i * k) % 23) * 0.25 - 2.5), s);
      const [a, b] = [t(sa, 7), t(sb, 11)];
      const y = bmm(a as tf.Tensor3D, b as tf.Tensor3D, ta, tb);
      const w = t(y.shape, 5);
      const g = tf.grads((p: tf.Tensor, q: tf.Tensor) => tf.sum(tf.mul(bmm(p as tf.Tensor3D, q as tf.Tensor3D, ta, tb), w)))([a, b]);
      const r = [y, ...g].map((v) => ({ shape: v.shape, values: Array.from(v.dataSync()).map((x) => Math.round(x * 1e3) / 1e3) }));
      tf.dispose([a, b, y, w, ...g]);
      return r;
    });
    assert.equal(tf.backend().numDataIds(), ids, `${backend}: buffers left behind`);
    return out;
  };
  const cpu = await run('cpu');
  let wasm: typeof cpu = [];
  const counted = await countKernels(async () => { wasm = await run('wasm'); });
  assert.deepEqual(wasm, cpu);
  assert.ok((counted.byName.get('LinoSampleMatMul') ?? 0) >= 3 * cases.length, 'the products ran as LinoSampleMatMul');
  assert.equal(counted.byName.get('Slice') ?? 0, 0, 'no per-sample Slice');
});
