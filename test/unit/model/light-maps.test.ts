// Light maps against the PyTorch reference (tools/parity/light_maps_ref.py): committed
// fixtures for 1D/2D x full/efficient scattering, with refraction ablated in one case and scattering
// in another; every map <= 1e-5 relative error on cpu and wasm, the forward output unchanged.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import * as tf from '../../../main/ops/tf';
import '@tensorflow/tfjs-backend-wasm';
import { LinoOperator } from '../../../main/model/lino/operator';
import { lightMaps, neighbourhood, queryIndex } from '../../../main/model/lino/light-maps';
import { readSafetensorsFile, toFloat32 } from '../../../main/runs/safetensors';
import { loadWeights } from '../../../main/runs/state-dict';
import { relErr } from '../../helpers/parity-cases';

const DIR = new URL('../../fixtures/lightmaps/', import.meta.url).pathname;
interface Case { name: string; config: Record<string, unknown>; query: number[] | null }
const cases: Case[] = JSON.parse(readFileSync(join(DIR, 'cases.json'), 'utf8')).cases;

for (const backend of ['cpu', 'wasm']) {
  test(`light maps match the PyTorch reference on ${backend}`, async (t) => {
    assert.ok(await tf.setBackend(backend), `backend ${backend} failed to initialise`);
    assert.equal(cases.length, 6);
    for (const c of cases) {
      await t.test(c.name, async () => {
        const before = tf.memory().numTensors;
        const model = new LinoOperator(c.config);
        try {
          loadWeights(model, join(DIR, `${c.name}.weights.safetensors`));
          const io = readSafetensorsFile(join(DIR, `${c.name}.maps.safetensors`)).tensors;
          const ref = (k: string) => toFloat32(io.get(k)!);
          const x = tf.tensor(ref('x'), io.get('x')!.shape);
          const maps = await lightMaps(model, x, c.query ? { query: c.query } : {});
          const plain = model.forward(x).y;
          assert.deepEqual(await maps.y.data(), await plain.data(), 'the capture changed the forward output');
          tf.dispose([x, plain, maps.y]);
          const check = (name: string, ours: Float32Array | Int32Array | undefined) => {
            assert.ok(io.has(name), `${c.name}: the reference has no ${name}`);
            assert.ok(ours, `${c.name}: no ${name}`);
            const e = relErr(Array.from(ours!), ref(name));
            assert.ok(e <= 1e-5, `${c.name}: ${name} rel. error ${e}`);
          };
          let files = 1;
          for (const [b, m] of maps.blocks.entries()) {
            const comps = (c.config.components as string[]);
            assert.equal(m.reflectionActivity !== undefined, comps.includes('reflection'));
            assert.equal(m.refractionActivity !== undefined, comps.includes('refraction'));
            if (m.reflectionActivity) { check(`block${b}_reflection_activity`, m.reflectionActivity); files++; }
            if (m.refractionActivity) { check(`block${b}_refraction_activity`, m.refractionActivity); files++; }
            for (const k of comps) { check(`block${b}_contribution_${k}`, m.contribution[k as 'reflection']); files++; }
            assert.deepEqual(Object.keys(m.contribution).sort(), [...comps].sort());
            assert.deepEqual(Array.from(m.dominant), Array.from(ref(`block${b}_dominant`)));
            check(`block${b}_latent_norm`, m.latentNorm);
            files += 2;
            if (c.query && comps.includes('scattering')) { check(`block${b}_scattering_kernel`, m.kernel?.row); files++; }
            else assert.equal(m.kernel, undefined);
          }
          check('gates', maps.gates);
          assert.equal(files, io.size - 1, `${c.name}: not every reference map was compared`);
        } finally {
          model.dispose();
        }
        assert.equal(tf.memory().numTensors, before, 'tensors leaked');
      });
    }
  });
}

test('query points and their local neighbourhoods', () => {
  assert.equal(queryIndex([5, 4], [2, 1]), 9);
  assert.equal(queryIndex([12], [11]), 11);
  assert.throws(() => queryIndex([5, 4], [5, 0]), /query coordinate 0 is 5, expected an integer in \[0, 4\]/);
  assert.throws(() => queryIndex([5, 4], [1]), /needs 2/);
  assert.deepEqual(neighbourhood([12], 0), [0, 1]);
  assert.deepEqual(neighbourhood([5, 4], 0), [0, 1, 4, 5]);
  assert.equal(neighbourhood([5, 4], 9).length, 9);
});
