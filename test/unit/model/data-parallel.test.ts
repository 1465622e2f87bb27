// Data-parallel gradients equal the single-process full-batch gradient; AdamW matches PyTorch's
// formula in closed form.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as tf from '@tensorflow/tfjs';
import { LinoOperator } from '../../../main/model/lino/operator';
import { DataParallelTrainer } from '../../../main/train/data-parallel';
import { AdamW } from '../../../main/train/adamw';
import { mseGradients } from '../../../main/train/grad-step';
import { relErr } from './parity-helpers';

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
  const ref = await mseGradients(m, x, y, 3);
  const refMb = await mseGradients(m, x, y, 1); // micro-batching gives the same gradient
  const init = new Map([...m.variables].map(([k, v]) => [k, Float32Array.from(v.dataSync() as Float32Array)]));
  const dp = await DataParallelTrainer.create('lino', cfg, init, { workers: 2, backend: 'cpu', adamw: { weightDecay: 1e-5 } });
  try {
    const xd = x.dataSync() as Float32Array;
    const yd = y.dataSync() as Float32Array;
    const got = await dp.gradients(xd, xs, yd, ys);
    assert.ok(Math.abs(got.loss - ref.loss) < 1e-5 * Math.abs(ref.loss));
    for (const [k, g] of ref.grads) {
      const r = g.dataSync() as Float32Array;
      assert.ok(relErr(got.grads.get(k)!, r) < 1e-5, `${k}: data-parallel`);
      assert.ok(relErr(refMb.grads.get(k)!.dataSync() as Float32Array, r) < 1e-5, `${k}: micro-batched`);
    }
    // two steps in the pool == two steps in process with the same AdamW
    const opt = new AdamW(m.variables, { weightDecay: 1e-5 });
    for (let s = 0; s < 2; s++) {
      await dp.step(xd, xs, yd, ys);
      const { grads } = await mseGradients(m, x, y, 3);
      await opt.apply(grads);
      tf.dispose([...grads.values()]);
    }
    const after = await dp.gradients(xd, xs, yd, ys);
    const local = await mseGradients(m, x, y, 3);
    for (const [k, g] of local.grads) assert.ok(relErr(after.grads.get(k)!, g.dataSync() as Float32Array) < 1e-4, `${k} after steps`);
    for (const [k, v] of m.variables) assert.ok(relErr(dp.params.get(k)!, v.dataSync() as Float32Array) < 1e-5, `${k} params`);
  } finally {
    await dp.close();
    m.dispose();
  }
});
