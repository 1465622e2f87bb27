// Importing the engine's ops and models registers no async backend: tfjs would then pick it as its
// automatic choice, and a process that makes a tensor without selecting a backend (a test, a
// script) would fail with "backend 'wasm' has not yet been initialized". The wasm package is
// imported only when the wasm backend is selected (main/ops/backend.ts, tfjs-internals/wasm-threads.ts).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as tf from '../../../main/ops/tf';
import '../../../main/ops/backend';
import '../../../main/ops/tfjs-internals/wasm-threads';
import '../../../main/ops/tfjs-internals/wasm-kernels';
import { createModel } from '../../../main/model/registry';

test('importing main/ops and the model registry registers no wasm backend; a model builds without selecting one', () => {
  assert.equal(tf.findBackendFactory('wasm'), null);
  const m = createModel('lino', { dims: 2, inChannels: 3, outChannels: 1, width: 8, depth: 1, seed: 1 });
  assert.ok(m.numParams() > 0);
  m.dispose();
});
