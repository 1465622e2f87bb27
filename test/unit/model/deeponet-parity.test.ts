// DeepONet parity with the PyTorch reference (scaleout/deeponet_ref.py; fixtures from
// tools/parity/make_deeponet_fixtures.py): 1D and 2D, one and several input and output channels
// (per-channel bases), one to four layers. Forward rel. error <= 1e-5 and gradient of sum(y * w)
// wrt every parameter <= 1e-4, on cpu and wasm, with the weights loaded under the reference's
// state_dict names; another resolution is refused with the field named.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as tf from '../../../main/ops/tf';
import { createModel } from '../../../main/model/registry';
import { kindParityTests } from './kind-parity';

kindParityTests('deeponet', 'DeepONet', 4);

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
