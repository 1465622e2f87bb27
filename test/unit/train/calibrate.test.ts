// calibrate() in this process: the shapes it derives from a configuration (without generating
// anything), an autoregressive run timed like an operator run, every tensor freed afterwards, a
// cancelled calibration stopping, and a file source refused naming the field.
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import * as tf from '@tensorflow/tfjs';
import { TrainConfig, type TrainConfigInput } from '../../../main/api/contract';
import { calibrate, calibrationShape, CalibrationCancelled } from '../../../main/train/calibrate';

before(async () => {
  await tf.setBackend('cpu');
});

const cfg = (c: Partial<TrainConfigInput> & Pick<TrainConfigInput, 'data'>) => TrainConfig.parse({ model: { width: 8, depth: 1 }, epochs: 2, batchSize: 2, ...c });

test('calibrationShape: generated Darcy keeps the generated grid and the release split; the paper preset strides to 85', () => {
  const q = calibrationShape(cfg({ data: { kind: 'generate', benchmark: 'darcy', preset: 'quick', samples: 250, generateResolution: 29 } }));
  assert.deepEqual([q.shape.grid, q.train, q.val, q.shape.xChannels], [[29, 29], 200, 50, 3]);
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
