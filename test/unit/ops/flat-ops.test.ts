// concatFlat and splitFlat (main/ops/concat-flat.ts, split-flat.ts): the training step's flat
// gradient and the device AdamW's write-back, one kernel each, with the values of the composed
// ops (reshape + concat, split + reshape) on cpu, wasm and webgpu (skipped with the reason when no
// adapter exists).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as tf from '../../../main/ops/tf';
import '@tensorflow/tfjs-backend-wasm';
import { concatFlat } from '../../../main/ops/concat-flat';
import { splitFlat } from '../../../main/ops/split-flat';
import { setFusedKernels } from '../../../main/ops/kernel-registry';
import { webgpuSkipReason } from '../../helpers/webgpu';

const skipGpu = await webgpuSkipReason();
const SHAPES = [[3, 4], [5], [2, 2, 3], [1], [7, 1]];

function dispatched<T>(f: () => T): { out: T; names: string[] } {
  const engine = tf.engine() as unknown as { runKernelFunc(p: { kernelName?: string }): unknown };
  const names: string[] = [];
  const orig = engine.runKernelFunc;
  engine.runKernelFunc = function (this: unknown, p: { kernelName?: string }) {
    if (p.kernelName) names.push(p.kernelName);
    return orig.call(this, p);
  };
  try {
    return { out: f(), names };
  } finally {
    engine.runKernelFunc = orig;
  }
}

for (const backend of ['cpu', 'wasm', 'webgpu']) {
  test(`concatFlat and splitFlat give the composed ops' values in one kernel each (${backend})`, { skip: backend === 'webgpu' ? skipGpu ?? false : false }, async () => {
    assert.ok(await tf.setBackend(backend));
    try {
      const parts = SHAPES.map((s, i) => tf.tensor(Float32Array.from({ length: s.reduce((a, b) => a * b, 1) }, (_, j) => i * 100 + j * 0.5 - 3), s));
      const before = tf.memory().numTensors - parts.length;
      const ref = tf.tidy(() => tf.concat(parts.map((p) => tf.reshape(p, [-1]))));
      const want = (await ref.data()) as Float32Array;
      ref.dispose();
      const c = dispatched(() => concatFlat(parts));
      assert.deepEqual(c.names, ['LinoConcatFlat']);
      assert.deepEqual(c.out.shape, [want.length]);
      assert.deepEqual([...(await c.out.data())], [...want]);
      const s = dispatched(() => splitFlat(c.out, SHAPES));
      assert.deepEqual(s.names, ['LinoSplitFlat']);
      for (const [i, p] of s.out.entries()) {
        assert.deepEqual(p.shape, SHAPES[i]);
        assert.deepEqual([...(await p.data())], [...(await parts[i]!.data())], `piece ${i}`);
      }
      assert.throws(() => splitFlat(c.out, [[2]]), /LinoSplitFlat: the shapes hold 2 values, the input has 37/);
      // the composed fallback (fused kernels off) gives the same
      setFusedKernels(false);
      try {
        const f = dispatched(() => concatFlat(parts));
        assert.ok(f.names.includes('Concat'));
        assert.deepEqual([...(await f.out.data())], [...want]);
        const back = splitFlat(f.out, SHAPES);
        assert.deepEqual(back.map((p) => p.shape), SHAPES);
        tf.dispose([f.out, ...back]);
      } finally {
        setFusedKernels(true);
      }
      tf.dispose([...parts, c.out, ...s.out]);
      assert.equal(tf.memory().numTensors, before, 'tensors leaked');
    } finally {
      await tf.setBackend('cpu');
    }
  });
}
