// The Navier-Stokes train relL2 and validation relL2 are one quantity (the mean over
// the rollout steps of the per-step relL2 on normalized fields, the release's "one-step"): on the
// same batch with the same weights, the train step's relL2, the trainer's validation and the run
// evaluation's relL2 agree; the full-rollout relL2 is reported apart (cpu backend).
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import * as tf from '../../../main/ops/tf';
import { TrainConfig } from '../../../main/api/contract';
import { Trainer, RELL2_DEFINITION } from '../../../main/train/trainer';
import { targetStats } from '../../../main/train/data';
import { syntheticData } from '../../../main/train/synthetic-data';
import { evaluateSplit } from '../../../main/train/evaluate';

before(async () => {
  await tf.setBackend('cpu');
});

test('autoregressive: train relL2 equals validation relL2 on the same batch (mean over steps), labelled', async () => {
  const tIn = 2, tOut = 4;
  const cfg = TrainConfig.parse({
    model: { width: 8, depth: 1 },
    data: { kind: 'synthetic', task: 'autoregressive', grid: [8, 8], train: 4, val: 2, tIn, tOut },
    epochs: 1, batchSize: 4, optimizer: { lr: 3e-3 },
  });
  const data = syntheticData(cfg.data as Parameters<typeof syntheticData>[0]);
  const t = new Trainer(cfg, data, 'cpu');
  const rec = await t.runEpoch(); // trained weights
  assert.equal(rec.relL2Definition, RELL2_DEFINITION.autoregressive);
  // the same batch (the whole training split) through the train path and the validation paths
  const g = await t.computeGrads([0, 1, 2, 3]);
  for (const v of g.grads.values()) v.dispose();
  const val = (await t.evaluateSplit(data.train)).metrics;
  const ev = (await evaluateSplit(t.model, data.train, { yStats: targetStats(data), batchSize: 2, autoregressive: { tIn, steps: tOut } })).metrics;
  console.log(`train relL2 ${g.relL2}, validation relL2 ${val.relL2}, run evaluation ${ev.relL2}, full rollout ${val.rolloutRelL2}`);
  assert.ok(Math.abs(g.relL2 - val.relL2) <= 1e-5 * val.relL2, `train ${g.relL2} vs validation ${val.relL2}`);
  assert.ok(Math.abs(ev.relL2 - val.relL2) <= 1e-5 * val.relL2, `run evaluation ${ev.relL2} vs validation ${val.relL2}`);
  assert.ok(Math.abs(val.relL2 - val.stepMeanRelL2!) <= 1e-6 * val.relL2, 'relL2 is the mean over steps');
  // the old train number (sum over steps) would be tOut times larger
  assert.ok(g.relL2 < 0.5 * tOut * val.relL2);
  assert.ok(val.rolloutRelL2! > 0 && ev.rolloutRelL2! > 0 && Math.abs(ev.rolloutRelL2! - val.rolloutRelL2!) <= 1e-5 * val.rolloutRelL2!);
  t.dispose();
});

test('operator learning: train relL2 equals validation relL2 on the same batch', async () => {
  const cfg = TrainConfig.parse({ model: { width: 6, depth: 1 }, data: { kind: 'synthetic', grid: [8, 8], train: 3, val: 2 }, epochs: 1, batchSize: 3 });
  const data = syntheticData(cfg.data as Parameters<typeof syntheticData>[0]);
  const t = new Trainer(cfg, data, 'cpu');
  const rec = await t.runEpoch();
  assert.equal(rec.relL2Definition, RELL2_DEFINITION.operator);
  const g = await t.computeGrads([0, 1, 2]);
  for (const v of g.grads.values()) v.dispose();
  const val = (await t.evaluateSplit(data.train)).metrics;
  assert.ok(Math.abs(g.relL2 - val.relL2) <= 1e-5 * val.relL2, `train ${g.relL2} vs validation ${val.relL2}`);
  assert.equal(val.rolloutRelL2, undefined);
  t.dispose();
});
