// model.estimate as the engine answers it: the parameter count of a real model instance, the
// coordinate channels, the wasm 4 GiB warning, and readable refusals.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as tf from '../../../main/ops/tf';
import { ApiError, ModelEstimate, parseParams } from '../../../main/api/contract';
import { modelEstimate, WASM_LIMIT_BYTES } from '../../../main/engine/model-estimate';
import { createLino } from '../../../main/model/lino/operator';

const base = { dims: 2, inChannels: 1, outChannels: 1, width: 16, depth: 2, scattering: 'efficient', components: ['reflection', 'scattering'] } as const;

test('setup: cpu backend', async () => {
  assert.ok(await tf.setBackend('cpu'));
});

test('parameter count equals a real model instance, with coordinates as extra input channels', () => {
  const p = parseParams('model.estimate', { config: base, grid: [32, 32], batch: 4 });
  assert.equal(p.coordinates, true);
  const e = modelEstimate(p);
  assert.ok(ModelEstimate.safeParse(e).success);
  assert.equal(e.inChannels, 3);
  const m = createLino({ ...base, components: [...base.components], inChannels: 3 });
  assert.equal(e.params, m.numParams());
  m.dispose();
  const noCoords = modelEstimate({ ...p, coordinates: false });
  assert.equal(noCoords.inChannels, 1);
  assert.equal(e.params - noCoords.params, 2 * 16, 'two more lifting input columns');
  assert.equal(e.exceedsWasm, false);
  assert.equal(e.peakBytes, e.paramStateBytes + e.activationBytes);
  assert.ok(e.trainStepFlops > e.forwardFlops);
  // the sweep grows with the grid and contains the square sizes in order
  for (let i = 1; i < e.sweep.length; i++) assert.ok(e.sweep[i]!.peakBytes > e.sweep[i - 1]!.peakBytes);
});

test('a configuration beyond 4 GiB per step is flagged; full scattering crosses it long before efficient', () => {
  const big = { ...base, width: 64, depth: 4, components: ['reflection', 'refraction', 'scattering'] as const };
  const full = modelEstimate({ config: { ...big, components: [...big.components], scattering: 'full' }, grid: [128, 128], batch: 8, coordinates: true });
  const eff = modelEstimate({ config: { ...big, components: [...big.components] }, grid: [128, 128], batch: 8, coordinates: true });
  assert.equal(full.wasmLimitBytes, WASM_LIMIT_BYTES);
  assert.equal(full.exceedsWasm, true, `full: ${full.peakBytes}`);
  assert.equal(eff.exceedsWasm, eff.peakBytes > WASM_LIMIT_BYTES);
  assert.ok(full.peakBytes > 4 * eff.peakBytes);
});

test('a grid that does not match the dimensions is refused naming the field', () => {
  assert.throws(() => modelEstimate({ config: { ...base, components: [...base.components] }, grid: [64], batch: 2, coordinates: false }), (e: unknown) => {
    assert.ok(e instanceof ApiError);
    assert.equal(e.details.field, 'grid');
    assert.match(e.message, /grid has 1 axes but the model is 2D/);
    return true;
  });
});
