// calibrate() in this process: the shapes it derives from a configuration (without generating
// anything), an autoregressive run timed like an operator run, every tensor freed afterwards, a
// cancelled calibration stopping, and a file source refused naming the field.
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import * as tf from '../../../main/ops/tf';
import '@tensorflow/tfjs-backend-wasm';
import { TrainConfig, type TrainConfigInput } from '../../../main/api/contract';
import { calibrate, calibrationShape, CalibrationCancelled } from '../../../main/train/calibrate';

before(async () => {
  await tf.setBackend('cpu');
});

const cfg = (c: Partial<TrainConfigInput> & Pick<TrainConfigInput, 'data'>) => TrainConfig.parse({ model: { width: 8, depth: 1 }, epochs: 2, batchSize: 2, ...c });

test('calibrationShape: generated Darcy keeps the generated grid and the release split; the paper preset strides to 85', () => {
  const q = calibrationShape(cfg({ data: { kind: 'generate', benchmark: 'darcy', preset: 'quick', samples: 250, generateResolution: 29 } }));
  assert.deepEqual([q.shape.grid, q.train, q.val, q.shape.xChannels], [[29, 29], 200, 50, 3]);
  // a test split takes its samples first (quick start's 500 with 50 for test: 360 / 90, as the run gets them)
  const t = calibrationShape(cfg({ data: { kind: 'generate', benchmark: 'darcy', preset: 'quick', samples: 500, generateResolution: 29, test: 50 } }));
  assert.deepEqual([t.train, t.val], [360, 90]);
  const p = calibrationShape(cfg({ data: { kind: 'generate', benchmark: 'darcy', preset: 'paper' } }));
  assert.deepEqual([p.shape.grid, p.train, p.val], [[85, 85], 800, 224]);
  const ns = calibrationShape(cfg({ data: { kind: 'generate', benchmark: 'navier-stokes', preset: 'tiny' } }));
  assert.deepEqual([ns.shape.grid, ns.ns, ns.shape.xChannels, ns.shape.yChannels], [[32, 32], { tIn: 10, tOut: 10 }, 12, 10]);
  assert.throws(() => calibrationShape(cfg({ data: { kind: 'file', path: '/x.mat', benchmark: 'darcy' } })), /field 'data.kind'/);
});

test('an autoregressive configuration is timed and leaves no tensor behind', async () => {
  const before = tf.memory().numTensors;
  const c = await calibrate(cfg({ data: { kind: 'synthetic', task: 'autoregressive', grid: [16], train: 6, val: 2, tIn: 2, tOut: 2 } }), { backend: 'cpu' });
  assert.ok(c.msPerStep > 0);
  assert.equal(c.stepsPerEpoch, 3);
  assert.equal(tf.memory().numTensors, before);
});

test('an aborted calibration stops with CalibrationCancelled and frees its model', async () => {
  const before = tf.memory().numTensors;
  const ctl = new AbortController();
  ctl.abort();
  await assert.rejects(calibrate(cfg({ data: { kind: 'synthetic', grid: [16], train: 4, val: 2 } }), { backend: 'cpu', signal: ctl.signal }), CalibrationCancelled);
  assert.equal(tf.memory().numTensors, before);
});

test('an FNO configuration calibrates on wasm: cancelled after its warm-up step, or timed, and its model freed', async (t) => {
  assert.ok(await tf.setBackend('wasm'));
  t.after(() => tf.setBackend('cpu'));
  const before = tf.memory().numTensors;
  let checks = 0;
  // aborted from the second check on: the one right after the warm-up step
  const signal = { get aborted() { return ++checks > 1; } } as unknown as AbortSignal;
  const fno = cfg({ data: { kind: 'synthetic', grid: [8, 8], train: 4, val: 2 }, model: { kind: 'fno', width: 4, modes: 2 } });
  await assert.rejects(calibrate(fno, { backend: 'wasm', signal }), CalibrationCancelled);
  assert.ok(checks >= 2, 'the warm-up step ran');
  assert.equal(tf.memory().numTensors, before);
  const timed = await calibrate(fno, { backend: 'wasm', steps: 2 });
  assert.ok(timed.msPerStep > 0 && timed.steps === 2);
  assert.equal(tf.memory().numTensors, before);
});
