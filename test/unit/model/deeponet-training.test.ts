// DeepONet on the training paths LiNO uses: micro-batched and data-parallel (2 threads, each its
// own replica built from the registry config) gradients equal the full-batch gradient.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as tf from '../../../main/ops/tf';
import { createModel } from '../../../main/model/registry';
import { ParallelGradients } from '../../../main/train/parallel-grads';
import { shareGradients, type GradOptions } from '../../../main/train/batch-grads';
import { relErr } from '../../helpers/parity-cases';

test('DeepONet: micro-batched and data-parallel gradients equal the full-batch gradient', async () => {
  assert.ok(await tf.setBackend('cpu'));
  const cfg = { dims: 2, inChannels: 3, outChannels: 2, grid: [6, 5], width: 8, layers: 3, basis: 4, seed: 5 };
  const m = createModel('deeponet', cfg);
  const xs = [4, 6, 5, 3];
  const ys = [4, 6, 5, 2];
  const x = tf.randomNormal(xs, 0, 1, 'float32', 1);
  const y = tf.randomNormal(ys, 0, 1, 'float32', 2);
  const B = xs[0]!;
  const grad = (microBatch: number): GradOptions => ({ ar: null, microBatch, checkpointBlocks: false, rolloutCheckpointing: false });
  const ref = await shareGradients(m, B, B, (i, k) => ({ x: tf.slice(x, i, k), y: tf.slice(y, i, k) }), grad(4));
  const mb = await shareGradients(m, B, B, (i, k) => ({ x: tf.slice(x, i, k), y: tf.slice(y, i, k) }), grad(1));
  const pool = await ParallelGradients.create(2, 'deeponet', cfg, 'cpu', grad(4));
  const xd = (await x.data()) as Float32Array;
  const yd = (await y.data()) as Float32Array;
  const rowsOf = (d: Float32Array, shape: number[], r: readonly number[]) => {
    const per = d.length / B;
    return { data: d.slice(r[0]! * per, (r[0]! + r.length) * per), shape: [r.length, ...shape.slice(1)] };
  };
  try {
    const got = await pool.compute(m, [0, 1, 2, 3], (r) => ({ x: rowsOf(xd, xs, r), y: rowsOf(yd, ys, r) }), (r) =>
      shareGradients(m, r.length, B, (i, k) => ({ x: tf.slice(x, r[0]! + i, k), y: tf.slice(y, r[0]! + i, k) }), grad(4)));
    assert.ok(Math.abs(got.loss - ref.loss) < 1e-5 * Math.abs(ref.loss), `loss ${got.loss} vs ${ref.loss}`);
    for (const [k, g] of ref.grads) {
      const r = (await g.data()) as Float32Array;
      assert.ok(relErr((await got.grads.get(k)!.data()) as Float32Array, r) < 1e-5, `${k}: data-parallel`);
      assert.ok(relErr((await mb.grads.get(k)!.data()) as Float32Array, r) < 1e-5, `${k}: micro-batched`);
    }
    tf.dispose([...got.grads.values(), ...ref.grads.values(), ...mb.grads.values()]);
  } finally {
    await pool.close();
    m.dispose();
    tf.dispose([x, y]);
  }
});
