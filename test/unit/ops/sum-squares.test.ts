// ops/sum-squares.ts: one kernel of our own on wasm (sixteen running sums, then the tail), Square and
// Sum elsewhere; both against a float64 loop, on lengths around the kernel's sixteen-wide steps.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as tf from '../../../main/ops/tf';
import '@tensorflow/tfjs-backend-wasm';
import { sumSquares } from '../../../main/ops/sum-squares';
import { countKernels } from '../../../main/ops/tfjs-internals/count-kernels';

for (const backend of ['wasm', 'cpu']) {
  test(`sumSquares on ${backend} matches a float64 loop on 0, 1, 15, 16, 17, 100 and 297,089 values`, async () => {
    assert.ok(await tf.setBackend(backend));
    for (const n of [0, 1, 15, 16, 17, 100, 297089]) {
      const v = Float32Array.from({ length: n }, (_, i) => Math.sin(i * 0.61) * (1 + (i % 7)));
      const x = tf.tensor1d(v);
      let got = NaN;
      const counted = await countKernels(async () => { const s = sumSquares(x); got = s.dataSync()[0]!; s.dispose(); });
      assert.equal((counted.byName.get('LinoSumSquares') ?? 0) > 0, backend === 'wasm');
      let want = 0;
      for (const a of v) want += a * a;
      assert.ok(Math.abs(got - want) <= 1e-5 * (1 + want), `${n} values: ${got} vs ${want}`);
      x.dispose();
    }
  });
}
