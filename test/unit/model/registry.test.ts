// The model registry as the engine follows it: the contract's kinds are the registered ones; each
// entry's parameter count equals a built model's; the Model view's estimate, the runner's preflight,
// model.json parsing and weights inference all dispatch on the kind; LiNO stays the default.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import * as tf from '../../../main/ops/tf';
import { MODEL_KINDS, TrainConfig, parseParams } from '../../../main/api/contract';
import { createModel, inferModel, listModels, modelEntry, parseModelFile } from '../../../main/model/registry';
import { modelEstimate } from '../../../main/engine/model-estimate';
import { preflightMemory } from '../../../main/train/memory';
import { readSafetensorsFile } from '../../../main/runs/safetensors';

const FNO_FIXTURES = new URL('../../fixtures/parity/fno/', import.meta.url).pathname;
const DEEPONET_FIXTURES = new URL('../../fixtures/parity/deeponet/', import.meta.url).pathname;

test('setup: cpu backend', async () => {
  assert.ok(await tf.setBackend('cpu'));
});

test('the contract names exactly the registered kinds', () => {
  assert.deepEqual(listModels(), [...MODEL_KINDS].sort());
});

test('paramCount equals the built model for every kind, 1D and 2D', () => {
  const configs: [string, Record<string, unknown>][] = [
    ['lino', { dims: 1, inChannels: 2, outChannels: 1, width: 8, depth: 2 }],
    ['lino', { dims: 2, inChannels: 3, outChannels: 1, width: 8, depth: 1, scattering: 'full', components: ['refraction', 'scattering'] }],
    ['fno', { dims: 1, inChannels: 2, outChannels: 1, width: 8, modes: 4 }],
    ['fno', { dims: 2, inChannels: 3, outChannels: 2, width: 6, modes: 3, layers: 3, projection: 16 }],
    ['deeponet', { dims: 1, inChannels: 2, outChannels: 1, grid: [16], width: 8, layers: 3, basis: 5 }],
    ['deeponet', { dims: 2, inChannels: 1, outChannels: 2, grid: [6, 4], width: 7, layers: 1, basis: 3 }],
  ];
  for (const [kind, cfg] of configs) {
    const m = createModel(kind, cfg);
    assert.equal(m.kind, kind);
    assert.equal(modelEntry(kind).paramCount(cfg), m.numParams(), `${kind} ${JSON.stringify(cfg)}`);
    m.dispose();
  }
});

test('a run config without a kind is LiNO; an FNO run takes FNO defaults for width and depth', () => {
  const data = { kind: 'synthetic', grid: [16], train: 4, val: 2 };
  assert.equal(TrainConfig.parse({ data }).model.kind, 'lino');
  assert.equal(TrainConfig.parse({ data }).model.width, 128);
  const f = TrainConfig.parse({ data, model: { kind: 'fno' } }).model;
  assert.deepEqual([f.kind, f.width, f.depth, f.modes], ['fno', 32, 4, undefined]);
  assert.throws(() => TrainConfig.parse({ data, model: { kind: 'unet' } }), /kind/);
  const cfg = modelEntry('fno').fromRun(f, { dims: 1, inChannels: 2, outChannels: 1, seed: 3, benchmark: 'burgers' });
  assert.deepEqual(cfg, { dims: 1, inChannels: 2, outChannels: 1, width: 32, modes: 16, layers: 4, seed: 3 });
});

test('model.estimate answers for FNO from its registry entry, with the parameter count of a built model', () => {
  const p = parseParams('model.estimate', { config: { kind: 'fno', dims: 2, inChannels: 1, outChannels: 1, width: 8, modes: 4 }, grid: [16, 16], batch: 2 });
  const e = modelEstimate(p);
  const m = createModel('fno', { dims: 2, inChannels: 3, outChannels: 1, width: 8, modes: 4 });
  assert.equal(e.params, m.numParams(), 'coordinates add two input channels');
  m.dispose();
  assert.match(e.source, /fno\/estimate\.ts/);
  assert.ok(e.trainStepFlops > e.forwardFlops && e.activationBytes > 0);
  assert.throws(() => parseParams('model.estimate', { config: { kind: 'fno', dims: 2, inChannels: 1, outChannels: 1, width: 8, modes: 0 }, grid: [16, 16] }), /modes/);
});

test('the runner preflight counts parameters with the kind\'s entry', () => {
  const shape = { grid: [32], samples: 8, xChannels: 2, yChannels: 1, outChannels: 1, copies: 1 };
  const model = { kind: 'fno', width: 16, depth: 4, modes: 8, scattering: 'efficient' as const, components: ['reflection'] };
  const p = preflightMemory({ model, batchSize: 4, microBatch: 'auto', checkpointBlocks: 'auto', rollout: { checkpointing: true } }, 'cpu', shape);
  assert.equal(p.params, modelEntry('fno').paramCount({ dims: 1, inChannels: 2, outChannels: 1, width: 16, modes: 8, layers: 4 }));
  assert.equal(p.fits, true);
  assert.equal(p.checkpointBlocks, false, 'FNO offers no block checkpointing');
});

test('model.json: kind defaults to lino, an unknown kind is named', () => {
  assert.equal(parseModelFile({ dims: 1, inChannels: 1, outChannels: 1, width: 4, depth: 1 }, 'm.json').kind, 'lino');
  assert.equal(parseModelFile({ kind: 'fno', dims: 1, inChannels: 1, outChannels: 1 }, 'm.json').config.modes, 12);
  assert.throws(() => parseModelFile({ kind: 'unet', dims: 1 }, 'm.json'), /m\.json: field 'kind': expected one of 'deeponet', 'fno', 'lino'/);
  assert.throws(() => parseModelFile({ kind: 'deeponet', dims: 2, inChannels: 1, outChannels: 1, grid: [8] }, 'm.json'), /m\.json: field 'grid': expected 2 axis sizes/);
  assert.throws(() => parseModelFile({ kind: 'fno', dims: 1, inChannels: 1, outChannels: 1, depth: 3 }, 'm.json'), /m\.json: field '\(root\)'/);
});

test('weights inference finds the kind from the key names', () => {
  const f = readSafetensorsFile(join(FNO_FIXTURES, '2d.weights.safetensors'));
  const { kind, config } = inferModel(f.tensors, {}, '2d.weights.safetensors');
  assert.equal(kind, 'fno');
  assert.deepEqual({ ...config, notes: undefined }, { dims: 2, inChannels: 3, outChannels: 1, width: 5, modes: 3, layers: 4, projection: 16, notes: undefined });
});

test('DeepONet: a run takes the paper\'s sizes (width 128, 8 layers, basis 128) and the data\'s grid', () => {
  const data = { kind: 'synthetic', grid: [16], train: 4, val: 2 };
  const m = TrainConfig.parse({ data, model: { kind: 'deeponet' } }).model;
  assert.deepEqual([m.kind, m.width, m.depth, m.basis], ['deeponet', 128, 8, undefined]);
  const cfg = modelEntry('deeponet').fromRun(m, { dims: 1, inChannels: 2, outChannels: 1, seed: 3, grid: [16] });
  assert.deepEqual(cfg, { dims: 1, inChannels: 2, outChannels: 1, grid: [16], width: 128, layers: 8, basis: 128, seed: 3 });
  const small = TrainConfig.parse({ data, model: { kind: 'deeponet', width: 16, depth: 3, basis: 8 } }).model;
  assert.deepEqual([small.width, small.depth, small.basis], [16, 3, 8]);
});

test('model.estimate and the runner preflight answer for DeepONet from its entry', () => {
  const p = parseParams('model.estimate', { config: { kind: 'deeponet', dims: 1, inChannels: 1, outChannels: 1, grid: [32], width: 8, layers: 3, basis: 4 }, grid: [32], batch: 2 });
  const e = modelEstimate(p);
  const m = createModel('deeponet', { dims: 1, inChannels: 2, outChannels: 1, grid: [32], width: 8, layers: 3, basis: 4 });
  assert.equal(e.params, m.numParams(), 'coordinates add one input channel');
  m.dispose();
  assert.match(e.source, /deeponet\/estimate\.ts/);
  assert.ok(e.sweep.every((s, i) => i === 0 || s.peakBytes > e.sweep[i - 1]!.peakBytes), 'a DeepONet on a larger grid is larger');
  const shape = { grid: [32], samples: 8, xChannels: 2, yChannels: 1, outChannels: 1, copies: 1 };
  const model = { kind: 'deeponet', width: 8, depth: 3, basis: 4, scattering: 'efficient' as const, components: ['reflection'] };
  const pre = preflightMemory({ model, batchSize: 4, microBatch: 'auto', checkpointBlocks: 'auto', rollout: { checkpointing: true } }, 'cpu', shape);
  assert.equal(pre.params, modelEntry('deeponet').paramCount({ dims: 1, inChannels: 2, outChannels: 1, grid: [32], width: 8, layers: 3, basis: 4 }));
  assert.equal(pre.checkpointBlocks, false);
});

test('weights inference recognises a DeepONet state_dict', () => {
  const f = readSafetensorsFile(join(DEEPONET_FIXTURES, '1d-multi.weights.safetensors'));
  const { kind, config } = inferModel(f.tensors, {}, '1d-multi.weights.safetensors');
  assert.equal(kind, 'deeponet');
  assert.deepEqual({ ...config, notes: undefined }, { dims: 1, outChannels: 2, width: 7, layers: 2, basis: 5, branchInputs: 24, notes: undefined });
});
