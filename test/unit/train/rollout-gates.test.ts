// Autoregressive (Navier–Stokes) runs: the gate statistics of the validation metrics cover every
// rollout step (mean/std over samples and steps), checked against each step's gates recomputed
// from the training rollout's own predictions (cpu backend).
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import * as tf from '../../../main/ops/tf';
import { TrainConfig } from '../../../main/api/contract';
import { Trainer } from '../../../main/train/trainer';
import { syntheticData } from '../../../main/train/synthetic-data';
import { rollout } from '../../../main/train/rollout';

before(async () => {
  await tf.setBackend('cpu');
});

test('autoregressive validation: gate alpha mean/std over every rollout step and sample', async () => {
  const tIn = 2, tOut = 3;
  const cfg = TrainConfig.parse({
    model: { width: 8, depth: 2 },
    data: { kind: 'synthetic', task: 'autoregressive', grid: [8, 8], train: 4, val: 3, tIn, tOut },
    epochs: 1, batchSize: 2, optimizer: { lr: 3e-3 },
  });
  const data = syntheticData(cfg.data as Parameters<typeof syntheticData>[0]);
  const t = new Trainer(cfg, data, 'cpu');
  await t.runEpoch(); // trained weights: gates differ from their initial values
  const n0 = tf.memory().numTensors;
  const { blocks } = await t.evaluateSplit(data.val, true);
  assert.equal(tf.memory().numTensors, n0, 'no tensors left behind');
  assert.equal(blocks.length, 2);

  // Independent: the inputs of every step from the training rollout's predictions, each step's gates.
  const x0 = tf.tensor(data.val.x.data as Float32Array, [...data.val.x.shape], 'float32');
  const pred = rollout(t.model, x0, { tIn, tOut, checkpoint: false });
  const axis = x0.rank - 1;
  const C = x0.shape[axis]!;
  const hist0 = tf.slice(x0, [0, 0, 0, 0], [-1, -1, -1, tIn]);
  const coords = tf.slice(x0, [0, 0, 0, tIn], [-1, -1, -1, C - tIn]);
  const frames = tf.concat([hist0, pred], axis); // [B, H, W, tIn + tOut]
  const rows: number[][][] = [[], []]; // [block][row][component]
  const firstOnly: number[][][] = [[], []];
  for (let k = 0; k < tOut; k++) {
    const xk = tf.concat([tf.slice(frames, [0, 0, 0, k], [-1, -1, -1, tIn]), coords], axis);
    const f = t.model.forward(xk, { diagnostics: true });
    f.diagnostics!.forEach((d, b) => {
      const a = d.alpha.arraySync() as number[][];
      rows[b]!.push(...a);
      if (k === 0) firstOnly[b]!.push(...a);
    });
  }
  const stats = (r: number[][]) => r[0]!.map((_, c) => {
    const v = r.map((row) => row[c]!);
    const m = v.reduce((p, q) => p + q, 0) / v.length;
    return [m, Math.sqrt(v.reduce((p, q) => p + (q - m) ** 2, 0) / v.length)] as const;
  });
  let differsFromFirst = false;
  blocks.forEach((blk, b) => {
    assert.equal(rows[b]!.length, 3 * tOut, 'samples x steps rows');
    const want = stats(rows[b]!);
    const first = stats(firstOnly[b]!);
    want.forEach(([m, s], c) => {
      assert.ok(Math.abs(blk.alphaMean[c]! - m) < 1e-5, `block ${b} component ${c}: mean ${blk.alphaMean[c]} vs ${m}`);
      assert.ok(Math.abs(blk.alphaStd[c]! - s) < 1e-5, `block ${b} component ${c}: std ${blk.alphaStd[c]} vs ${s}`);
      if (Math.abs(first[c]![0] - m) > 1e-6) differsFromFirst = true;
    });
  });
  assert.ok(differsFromFirst, 'the later steps change the statistics (the first step alone would differ)');
  t.dispose();
});
