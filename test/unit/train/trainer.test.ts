// The trainer on tiny synthetic data (cpu backend): micro-batching, learning, the checkpointed
// rollout's gradients, no tensor leaks.
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import * as tf from '../../../main/ops/tf';
import { TrainConfig, type TrainConfigInput } from '../../../main/api/contract';
import { Trainer } from '../../../main/train/trainer';
import { syntheticData } from '../../../main/train/synthetic-data';
import { rollout } from '../../../main/train/rollout';
import { objective } from '../../../main/train/loss';

before(async () => {
  await tf.setBackend('cpu');
});

const cfgOf = (over: Partial<TrainConfigInput> & { data?: TrainConfigInput['data'] } = {}) =>
  TrainConfig.parse({
    model: { width: 8, depth: 2 },
    data: { kind: 'synthetic', grid: [8, 8], train: 8, val: 4 },
    epochs: 3,
    batchSize: 4,
    optimizer: { lr: 3e-3 },
    ...over,
  });

function maxRelDiff(a: ArrayLike<number>, b: ArrayLike<number>): number {
  let m = 0;
  for (let i = 0; i < a.length; i++) m = Math.max(m, Math.abs(a[i]! - b[i]!) / (1e-6 + Math.abs(b[i]!)));
  return m;
}

for (const task of ['operator', 'autoregressive'] as const) {
  test(`micro-batching gives the whole batch's gradients and updates (${task})`, async () => {
    const cfg = cfgOf({ data: { kind: 'synthetic', task, grid: [8, 8], train: 8, val: 2, tIn: 2, tOut: 2 } });
    const data = syntheticData(cfg.data as Parameters<typeof syntheticData>[0]);
    const whole = new Trainer(cfg, data, 'cpu', { microBatch: 4 });
    const rows = [5, 0, 3, 6];
    const gw = await whole.computeGrads(rows);
    for (const mb of [1, 3]) {
      const part = new Trainer(cfg, data, 'cpu', { microBatch: mb });
      const gp = await part.computeGrads(rows);
      assert.ok(Math.abs(gp.loss - gw.loss) <= 1e-5 * Math.abs(gw.loss), `micro-batch ${mb}: loss ${gp.loss} vs ${gw.loss}`);
      for (const [k, g] of gw.grads) {
        const a = g.dataSync(), b = gp.grads.get(k)!.dataSync();
        let num = 0, den = 0;
        for (let i = 0; i < a.length; i++) { num += (a[i]! - b[i]!) ** 2; den += a[i]! ** 2; }
        assert.ok(Math.sqrt(num) <= 1e-4 * Math.sqrt(den) + 1e-9, `micro-batch ${mb}: gradient of ${k} differs (rel ${Math.sqrt(num / (den || 1))})`);
      }
      for (const g of gp.grads.values()) g.dispose();
      // Three optimizer steps later the weights still agree to float tolerance.
      const w2 = new Trainer(cfg, data, 'cpu', { microBatch: 4 });
      for (let s = 0; s < 3; s++) { await w2.step(rows); await part.step(rows); }
      for (const [k, v] of w2.model.variables) {
        const d = maxRelDiff(part.model.variables.get(k)!.dataSync(), v.dataSync());
        assert.ok(d < 1e-3, `micro-batch ${mb}: parameter ${k} after 3 steps differs by ${d}`);
      }
      part.dispose();
      w2.dispose();
    }
    for (const g of gw.grads.values()) g.dispose();
    whole.dispose();
  });
}

test('loss decreases on a tiny run and tensors do not accumulate across epochs', async () => {
  const cfg = cfgOf({ epochs: 4 });
  const t = new Trainer(cfg, syntheticData(cfg.data as Parameters<typeof syntheticData>[0]), 'cpu');
  const first = await t.runEpoch();
  const n0 = tf.memory().numTensors;
  let last = first;
  for (let e = 1; e < 4; e++) last = await t.runEpoch();
  assert.equal(tf.memory().numTensors, n0, 'tensor count stable between epochs');
  assert.ok(last.train.loss < 0.7 * first.train.loss, `train loss ${first.train.loss} -> ${last.train.loss}`);
  assert.ok(last.val.relL2 < first.val.relL2, `val relL2 ${first.val.relL2} -> ${last.val.relL2}`);
  assert.equal(last.blocks.length, 2);
  assert.deepEqual(last.blocks[0]!.components, ['reflection', 'refraction', 'scattering']);
  const a = last.blocks[0]!.alphaMean;
  assert.ok(Math.abs(a.reduce((p, q) => p + q, 0) - 1) < 1e-5, 'gate weights sum to 1');
  assert.ok(['eta', 'beta', 'sigma'].every((k) => Number.isFinite(last.blocks[0]!.scalars[k])), JSON.stringify(last.blocks[0]!.scalars));
  assert.ok(last.val.relL2Decoded > 0 && last.val.relL2Decoded !== last.val.relL2, 'decoded convention reported separately');
  t.dispose();
});

test('checkpointed rollout: same loss and gradients as the plain rollout', () => {
  const cfg = cfgOf({ data: { kind: 'synthetic', task: 'autoregressive', grid: [8, 8], train: 3, val: 1, tIn: 3, tOut: 4 } });
  const data = syntheticData(cfg.data as Parameters<typeof syntheticData>[0]);
  const t = new Trainer(cfg, data, 'cpu');
  const x = tf.tensor(data.train.x.data as Float32Array, [...data.train.x.shape]);
  const y = tf.tensor(data.train.y.data as Float32Array, [...data.train.y.shape]);
  const vars = [...t.model.variables.values()];
  const run = (checkpoint: boolean) => tf.variableGrads(() => objective(rollout(t.model, x, { tIn: 3, tOut: 4, checkpoint }), y), vars);
  tf.dispose(t.model.forward(x).y); // first call caches grid constants
  const before = tf.memory().numTensors;
  const plain = run(false);
  const ck = run(true);
  assert.ok(Math.abs(plain.value.dataSync()[0]! - ck.value.dataSync()[0]!) < 1e-6);
  for (const v of vars) {
    const a = plain.grads[v.name]!.dataSync(), b = ck.grads[v.name]!.dataSync();
    const d = maxRelDiff(b, a);
    let scale = 0; for (const q of a) scale = Math.max(scale, Math.abs(q));
    let absd = 0; for (let i = 0; i < a.length; i++) absd = Math.max(absd, Math.abs(a[i]! - b[i]!));
    assert.ok(absd <= 1e-5 * Math.max(scale, 1e-3) || d < 1e-4, `gradient of ${v.name}: max |diff| ${absd}, scale ${scale}`);
  }
  tf.dispose([plain.value, ck.value, ...Object.values(plain.grads), ...Object.values(ck.grads)]);
  assert.equal(tf.memory().numTensors, before, 'checkpointed backward leaves no tensors behind');
  // The checkpointed forward keeps fewer bytes alive while the tape is open.
  const peak = (checkpoint: boolean) => {
    let p = 0;
    const g = tf.variableGrads(() => {
      const l = objective(rollout(t.model, x, { tIn: 3, tOut: 4, checkpoint }), y);
      p = tf.memory().numBytes;
      return l;
    }, vars);
    tf.dispose([g.value, ...Object.values(g.grads)]);
    return p;
  };
  const pPlain = peak(false), pCk = peak(true);
  assert.ok(pCk < pPlain, `bytes held at the end of the forward: checkpointed ${pCk} < plain ${pPlain}`);
  x.dispose();
  y.dispose();
  t.dispose();
});

test('block checkpointing: same gradients as the plain forward (operator and rollout), less memory held', async () => {
  for (const task of ['operator', 'autoregressive'] as const) {
    const cfg = cfgOf({ model: { width: 8, depth: 3 }, data: { kind: 'synthetic', task, grid: [8, 8], train: 2, val: 1, tIn: 2, tOut: 3 } });
    const data = syntheticData(cfg.data as Parameters<typeof syntheticData>[0]);
    const plain = new Trainer(cfg, data, 'cpu', { checkpointBlocks: false });
    const ck = new Trainer(cfg, data, 'cpu', { checkpointBlocks: true });
    assert.equal(ck.checkpointBlocks, true);
    const a = await plain.computeGrads([0, 1]);
    const b = await ck.computeGrads([0, 1]);
    assert.ok(Math.abs(a.loss - b.loss) <= 1e-6 * Math.abs(a.loss), `${task}: loss ${a.loss} vs ${b.loss}`);
    for (const [k, g] of a.grads) {
      const x = g.dataSync(), y = b.grads.get(k)!.dataSync();
      let num = 0, den = 0;
      for (let i = 0; i < x.length; i++) { num += (x[i]! - y[i]!) ** 2; den += x[i]! ** 2; }
      assert.ok(Math.sqrt(num) <= 1e-5 * Math.sqrt(den) + 1e-9, `${task}: gradient of ${k} differs`);
    }
    tf.dispose([...a.grads.values(), ...b.grads.values()]);
    plain.dispose();
    ck.dispose();
  }
  // Bytes held at the end of the forward (what the tape keeps for backward).
  const cfg = cfgOf({ model: { width: 16, depth: 4 }, data: { kind: 'synthetic', grid: [16, 16], train: 2, val: 1 } });
  const data = syntheticData(cfg.data as Parameters<typeof syntheticData>[0]);
  const held = (blocks: boolean) => {
    const t = new Trainer(cfg, data, 'cpu', { checkpointBlocks: blocks });
    const x = tf.tensor(data.train.x.data as Float32Array, [...data.train.x.shape]);
    let bytes = 0;
    const g = tf.variableGrads(() => {
      const y = (t as unknown as { predict(x: tf.Tensor, c: boolean): tf.Tensor }).predict(x, false);
      bytes = tf.memory().numBytes;
      return tf.sum(y) as tf.Scalar;
    }, [...t.model.variables.values()]);
    tf.dispose([g.value, ...Object.values(g.grads), x]);
    t.dispose();
    return bytes;
  };
  const hp = held(false), hc = held(true);
  assert.ok(hc < hp / 2, `bytes held: block-checkpointed ${hc} vs plain ${hp}`);
});
