// DeepONet parity with the PyTorch reference (scaleout/deeponet_ref.py; fixtures from
// tools/parity/make_deeponet_fixtures.py): 1D and 2D, one and several input and output channels
// (per-channel bases), one to four layers. Forward rel. error <= 1e-5 and gradient of sum(y * w)
// wrt every parameter <= 1e-4, on cpu and wasm, with the weights loaded under the reference's
// state_dict names; another resolution is refused with the field named.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import * as tf from '../../../main/ops/tf';
import '@tensorflow/tfjs-backend-wasm';
import { createModel } from '../../../main/model/registry';
import { readSafetensorsFile, toFloat32 } from '../../../main/runs/safetensors';
import { loadWeights } from '../../../main/runs/state-dict';
import { relErr } from './parity-helpers';

const DIR = new URL('../../fixtures/parity/deeponet/', import.meta.url).pathname;
const cases = (JSON.parse(readFileSync(join(DIR, 'cases.json'), 'utf8')) as { cases: { name: string; config: Record<string, unknown> }[] }).cases;

for (const backend of ['cpu', 'wasm']) {
  test(`DeepONet parity with PyTorch on ${backend}`, async (t) => {
    assert.ok(await tf.setBackend(backend), `backend ${backend} failed to initialise`);
    assert.equal(cases.length, 4);
    for (const c of cases) {
      await t.test(c.name, async () => {
        const before = tf.memory().numTensors;
        const model = createModel('deeponet', c.config);
        try {
          loadWeights(model, join(DIR, `${c.name}.weights.safetensors`));
          const io = readSafetensorsFile(join(DIR, `${c.name}.io.safetensors`)).tensors;
          const ref = (k: string) => toFloat32(io.get(k)!);
          const x = tf.tensor(ref('x'), io.get('x')!.shape);
          const w = tf.tensor(ref('loss_weight'), io.get('loss_weight')!.shape);
          const { y } = model.forward(x);
          const fwd = relErr((await y.data()) as Float32Array, ref('y'));
          y.dispose();
          assert.ok(fwd <= 1e-5, `${c.name}: forward rel. error ${fwd}`);
          const { value, grads } = tf.variableGrads(() => tf.sum(tf.mul(model.forward(x).y, w)) as tf.Scalar, [...model.variables.values()]);
          value.dispose();
          let worst = 0;
          for (const [k, v] of model.variables) {
            assert.ok(grads[v.name], `${c.name}: no gradient for ${k}`);
            const e = relErr((await grads[v.name]!.data()) as Float32Array, ref(`grad.${k}`));
            assert.ok(e <= 1e-4, `${c.name}: gradient of ${k} rel. error ${e}`);
            worst = Math.max(worst, e);
          }
          t.diagnostic(`${backend} ${c.name}: forward ${fwd.toExponential(2)}, worst gradient ${worst.toExponential(2)}`);
          tf.dispose([x, w, ...Object.values(grads)]);
        } finally {
          model.dispose();
        }
        assert.equal(tf.memory().numTensors, before, 'tensors leaked');
      });
    }
  });
}

test('DeepONet keeps the state_dict names of the reference and refuses another resolution', async () => {
  assert.ok(await tf.setBackend('cpu'));
  const model = createModel('deeponet', { dims: 1, inChannels: 2, outChannels: 1, grid: [8], width: 4, layers: 2, basis: 3 });
  try {
    assert.deepEqual([...model.variables.keys()], ['branch.layers.0.weight', 'branch.layers.0.bias', 'branch.layers.1.weight', 'branch.layers.1.bias', 'trunk.layers.0.weight', 'trunk.layers.0.bias', 'trunk.layers.1.weight', 'trunk.layers.1.bias', 'bias']);
    assert.deepEqual(model.variables.get('branch.layers.0.weight')!.shape, [4, 16], 'the branch takes 8 points x 2 channels');
    const x = tf.zeros([1, 16, 2]);
    assert.throws(() => model.forward(x), /field 'grid'.*built for grid 8, the input is 16.*does not transfer/);
    x.dispose();
  } finally {
    model.dispose();
  }
});
