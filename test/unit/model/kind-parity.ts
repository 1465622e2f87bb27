// Parity of a registered baseline kind with its PyTorch reference, one fixture folder per kind
// (test/fixtures/parity/<kind>: cases.json, <case>.weights.safetensors under the reference's
// state_dict names, <case>.io.safetensors with x, y, loss_weight and grad.<param>): forward rel.
// error <= 1e-5 and the gradient of sum(y * w) wrt every parameter <= 1e-4, on cpu and wasm.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import * as tf from '../../../main/ops/tf';
import '@tensorflow/tfjs-backend-wasm';
import { createModel } from '../../../main/model/registry';
import { readSafetensorsFile, toFloat32 } from '../../../main/runs/safetensors';
import { loadWeights } from '../../../main/runs/state-dict';
import { relErr } from '../../helpers/parity-cases';

export function kindParityTests(kind: string, label: string, expectedCases: number): void {
  const dir = new URL(`../../fixtures/parity/${kind}/`, import.meta.url).pathname;
  const cases = (JSON.parse(readFileSync(join(dir, 'cases.json'), 'utf8')) as { cases: { name: string; config: Record<string, unknown> }[] }).cases;
  for (const backend of ['cpu', 'wasm']) {
    test(`${label} parity with PyTorch on ${backend}`, async (t) => {
      assert.ok(await tf.setBackend(backend), `backend ${backend} failed to initialise`);
      assert.equal(cases.length, expectedCases);
      for (const c of cases) {
        await t.test(c.name, async () => {
          const before = tf.memory().numTensors;
          const model = createModel(kind, c.config);
          try {
            loadWeights(model, join(dir, `${c.name}.weights.safetensors`));
            const io = readSafetensorsFile(join(dir, `${c.name}.io.safetensors`)).tensors;
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
}
