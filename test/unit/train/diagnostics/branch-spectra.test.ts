// Per-branch spectra (main/train/diagnostics/branch-spectra.ts): the branch fields the light-map pass
// returns add up to the block's mixed update W_out sum_k alpha_k b_k(h) of the same forward pass, and
// the report's band shares of each block sum to one.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import * as tf from '../../../../main/ops/tf';
import { LinoOperator } from '../../../../main/model/lino/operator';
import { lightMaps } from '../../../../main/model/lino/light-maps';
import { mixBranches } from '../../../../main/model/lino/gate';
import { linear } from '../../../../main/ops/linear';
import { loadWeights } from '../../../../main/runs/state-dict';
import { readSafetensorsFile, toFloat32 } from '../../../../main/runs/safetensors';
import { branchSpectra } from '../../../../main/train/diagnostics/branch-spectra';
import { shellCount } from '../../../../main/train/diagnostics/spectrum';

const DIR = new URL('../../../fixtures/lightmaps/', import.meta.url).pathname;
const cases: { name: string; config: Record<string, unknown> }[] = JSON.parse(readFileSync(join(DIR, 'cases.json'), 'utf8')).cases;

for (const name of ['2d-all-eff', '1d-all-full']) {
  test(`branch fields and spectra (${name})`, async () => {
    await tf.setBackend('cpu');
    const c = cases.find((k) => k.name === name)!;
    const model = new LinoOperator(c.config);
    const io = readSafetensorsFile(join(DIR, `${name}.maps.safetensors`)).tensors;
    const x = tf.tensor(toFloat32(io.get('x')!), io.get('x')!.shape);
    try {
      loadWeights(model, join(DIR, `${name}.weights.safetensors`));
      const maps = await lightMaps(model, x, { branchFields: true });
      maps.y.dispose();
      const mixed: Float32Array[] = [];
      tf.tidy(() => {
        model.forward(x, { capture: (b, cap) => {
          const blk = model.blocks[b]!;
          const m = linear(mixBranches(cap.alpha, blk.components.map((k) => cap.branches[k]!)), blk.outProj.weight);
          mixed[b] = m.dataSync() as Float32Array; // the cpu backend: a synchronous read is fine in a test
        } });
      });
      maps.blocks.forEach((blk, b) => {
        const sum = new Float64Array(mixed[b]!.length);
        for (const k of blk.components) blk.fields![k]!.forEach((v, i) => { sum[i]! += v; });
        const scale = Math.max(...Array.from(mixed[b]!, Math.abs));
        sum.forEach((v, i) => assert.ok(Math.abs(v - mixed[b]![i]!) <= 1e-5 * scale, `block ${b} point ${i}: ${v} vs ${mixed[b]![i]}`));
      });
      const rep = await branchSpectra(model, { data: await x.data() as Float32Array, shape: x.shape }, { batchSize: 1 });
      assert.equal(rep.samples, x.shape[0]);
      assert.equal(rep.blocks.length, model.blocks.length);
      const grid = x.shape.slice(1, -1);
      for (const blk of rep.blocks) {
        for (const k of blk.components) {
          assert.equal(blk.spectra[k]!.length, shellCount(grid));
          assert.ok(blk.spectra[k]!.some((v) => v > 0), `${k} carries energy`);
        }
        const low = blk.components.reduce((s, k) => s + blk.bandShare[k]!.low!, 0);
        assert.ok(Math.abs(low - 1) < 1e-9, `low-band shares sum to ${low}`);
      }
    } finally {
      x.dispose();
      model.dispose();
    }
  });
}
