// Data-parallel gradients (ParallelGradients, the training runs' path) equal the single-process
// full-batch gradient; AdamW matches PyTorch's formula in closed form.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as tf from '../../../main/ops/tf';
import { LinoOperator } from '../../../main/model/lino/operator';
import { ParallelGradients } from '../../../main/train/parallel-grads';
import { AdamW } from '../../../main/train/adamw';
import { shareGradients, type GradOptions } from '../../../main/train/batch-grads';
import { relErr } from '../../helpers/parity-cases';

test('setup: cpu backend', async () => { assert.ok(await tf.setBackend('cpu')); });

test('AdamW: decoupled decay then bias-corrected Adam, as torch.optim.AdamW', async () => {
  const p = tf.variable(tf.tensor1d([1, -2, 0.5]));
  const opt = new AdamW(new Map([['w', p]]), { lr: 0.1, weightDecay: 0.01, eps: 1e-8 });
  const g1 = [0.5, -1, 2];
  const g2 = [1, 1, -1];
  await opt.apply(new Map([['w', tf.tensor1d(g1)]]));
  await opt.apply(new Map([['w', tf.tensor1d(g2)]]));
  // reference in float64
  let w = [1, -2, 0.5];
  const m = [0, 0, 0], v = [0, 0, 0];
  [g1, g2].forEach((g, s) => {
    const t = s + 1;
    w = w.map((wi, i) => {
      wi *= 1 - 0.1 * 0.01;
      m[i] = 0.9 * m[i]! + 0.1 * g[i]!;
      v[i] = 0.999 * v[i]! + 0.001 * g[i]! ** 2;
      return wi - 0.1 * (m[i]! / (1 - 0.9 ** t)) / (Math.sqrt(v[i]! / (1 - 0.999 ** t)) + 1e-8);
    });
  });
  const got = Array.from(p.dataSync());
  w.forEach((wi, i) => assert.ok(Math.abs(got[i]! - wi) < 1e-6, `w[${i}] ${got[i]} vs ${wi}`));
  // after one step each |update| ~ lr: a real change happened
  assert.ok(Math.abs(got[0]! - 1) > 0.1);
  p.dispose();
});

test('data-parallel gradient over 2 workers equals the full-batch gradient; steps keep replicas in sync', async () => {
  const cfg = { dims: 2, inChannels: 3, outChannels: 1, width: 8, depth: 2, scattering: 'efficient', seed: 5 } as const;
  const m = new LinoOperator(cfg);
  const xs = [3, 6, 5, 3];
  const ys = [3, 6, 5, 1];
  const x = tf.randomNormal(xs, 0, 1, 'float32', 1);
  const y = tf.randomNormal(ys, 0, 1, 'float32', 2);
  const B = xs[0]!;
  const grad = (microBatch: number): GradOptions => ({ ar: null, microBatch, checkpointBlocks: false, rolloutCheckpointing: false });
  const whole = (microBatch: number) => shareGradients(m, B, B, (i, k) => ({ x: tf.slice(x, i, k), y: tf.slice(y, i, k) }), grad(microBatch));
  const ref = await whole(3);
  const refMb = await whole(1); // micro-batching gives the same gradient
  const pool = await ParallelGradients.create(2, 'lino', cfg, 'cpu', grad(3));
  const xd = x.dataSync() as Float32Array;
  const yd = y.dataSync() as Float32Array;
  const rowsOf = (d: Float32Array, shape: number[], r: readonly number[]) => {
    const per = d.length / B;
    return { data: d.slice(r[0]! * per, (r[0]! + r.length) * per), shape: [r.length, ...shape.slice(1)] };
  };
  const parallel = () => pool.compute(m, [0, 1, 2], (r) => ({ x: rowsOf(xd, xs, r), y: rowsOf(yd, ys, r) }), (r) =>
    shareGradients(m, r.length, B, (i, k) => ({ x: tf.slice(x, r[0]! + i, k), y: tf.slice(y, r[0]! + i, k) }), grad(3)));
  try {
    const got = await parallel();
    assert.equal(pool.lastWorkerMs.length, 1, 'one helper thread computed a share');
    assert.ok(Math.abs(got.loss - ref.loss) < 1e-5 * Math.abs(ref.loss));
    assert.ok(Math.abs(got.relSum - ref.relSum) < 1e-5 * Math.abs(ref.relSum));
    for (const [k, g] of ref.grads) {
      const r = g.dataSync() as Float32Array;
      assert.ok(relErr(got.grads.get(k)!.dataSync() as Float32Array, r) < 1e-5, `${k}: data-parallel`);
      assert.ok(relErr(refMb.grads.get(k)!.dataSync() as Float32Array, r) < 1e-5, `${k}: micro-batched`);
    }
    tf.dispose([...got.grads.values(), ...ref.grads.values(), ...refMb.grads.values()]);
    // two steps through the pool == two steps in process with the same AdamW: the pool sends the
    // coordinator's current parameters with every step, so its replica follows
    const twin = new LinoOperator(cfg);
    const optPool = new AdamW(m.variables, { weightDecay: 1e-5 });
    const optLocal = new AdamW(twin.variables, { weightDecay: 1e-5 });
    for (let s = 0; s < 2; s++) {
      const p = await parallel();
      await optPool.apply(p.grads);
      tf.dispose([...p.grads.values()]);
      const l = await shareGradients(twin, B, B, (i, k) => ({ x: tf.slice(x, i, k), y: tf.slice(y, i, k) }), grad(3));
      await optLocal.apply(l.grads);
      tf.dispose([...l.grads.values()]);
    }
    for (const [k, v] of m.variables) assert.ok(relErr(v.dataSync() as Float32Array, twin.variables.get(k)!.dataSync() as Float32Array) < 1e-4, `${k} params after steps`);
    twin.dispose();
  } finally {
    await pool.close();
    m.dispose();
  }
});
