// Parameter count is exact; the memory estimate tracks what tfjs actually allocates.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as tf from '../../../main/ops/tf';
import { LinoOperator } from '../../../main/model/lino/operator';
import { estimateLino, linoParamCount } from '../../../main/model/lino/estimate';
import { listCases } from '../../helpers/parity-cases';
import { FIXTURES } from '../../helpers/parity-cases';
import { readSafetensorsFile } from '../../../main/runs/safetensors';
import { join } from 'node:path';

test('setup: cpu backend', async () => { assert.ok(await tf.setBackend('cpu')); });

test('parameter count equals the model and the PyTorch state dict for every fixture config', () => {
  for (const c of listCases()) {
    const m = new LinoOperator(c.config);
    const f = readSafetensorsFile(join(FIXTURES, `${c.name}.weights.safetensors`));
    const torchCount = [...f.tensors.values()].reduce((a, t) => a + t.shape.reduce((p, q) => p * q, 1), 0);
    assert.equal(m.numParams(), torchCount, c.name);
    assert.equal(linoParamCount(c.config), torchCount, c.name);
    m.dispose();
  }
  // paper defaults: M=128, L=8, efficient, 2D
  const cfg = { dims: 2, inChannels: 3, outChannels: 1, width: 128, depth: 8 };
  const m = new LinoOperator(cfg);
  assert.equal(linoParamCount(cfg), m.numParams());
  m.dispose();
});

test('memory estimate within 35% of tf.profile peak of a real training step; full grows as N^2', async () => {
  for (const scattering of ['efficient', 'full'] as const) {
    const cfg = { dims: 2, inChannels: 3, outChannels: 1, width: 16, depth: 2, scattering } as const;
    const m = new LinoOperator(cfg);
    const x = tf.randomNormal([2, 12, 12, 3]);
    const p = await tf.profile(() => {
      const { value, grads } = tf.variableGrads(() => tf.mean(tf.square(m.forward(x).y)) as tf.Scalar);
      value.dispose();
      tf.dispose(Object.values(grads));
    });
    const est = estimateLino(cfg, [12, 12], 2, 'cpu');
    const ratio = est.activationBytes / p.peakBytes;
    assert.ok(ratio > 0.65 && ratio < 1.35, `${scattering}: estimate ${est.activationBytes} vs measured ${p.peakBytes}`);
    m.dispose();
    x.dispose();
  }
  const e = (n: number, s: 'efficient' | 'full') => estimateLino({ dims: 2, inChannels: 3, outChannels: 1, width: 32, depth: 4, scattering: s }, [n, n], 4);
  assert.ok(e(128, 'full').activationBytes / e(64, 'full').activationBytes > 8);
  assert.ok(e(128, 'efficient').trainStepFlops / e(64, 'efficient').trainStepFlops < 4.1);
});
