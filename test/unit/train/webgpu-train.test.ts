// Training on the webgpu backend (device AdamW, clipping and metric sums as tensors): 5 steps match
// the cpu backend's to 1e-4, validation with gate diagnostics runs there, and a run's checkpoint
// moves between webgpu and wasm in both directions. On our machines the adapter is SwiftShader
// (software), so sizes are tiny. Skips with the reason when no adapter exists.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import * as tf from '../../../main/ops/tf';
import '@tensorflow/tfjs-backend-wasm';
import { TrainConfig } from '../../../main/api/contract';
import { Trainer } from '../../../main/train/trainer';
import { syntheticData } from '../../../main/train/synthetic-data';
import { trainRun } from '../../../main/train/runner';
import { RunStore } from '../../../main/runs/run-store';
import { webgpuSkipReason } from '../../helpers/webgpu';
import { tempDir } from '../../helpers/env';

const skip = await webgpuSkipReason();
const ws = tempDir('lino-webgpu-');
after(() => ws.cleanup());

const relL2 = (a: ArrayLike<number>, b: ArrayLike<number>) => {
  let num = 0, den = 0;
  for (let i = 0; i < b.length; i++) { num += (a[i]! - b[i]!) ** 2; den += b[i]! ** 2; }
  return Math.sqrt(num / Math.max(den, 1e-30));
};

async function fiveSteps(backend: string) {
  assert.ok(await tf.setBackend(backend));
  const cfg = TrainConfig.parse({ model: { width: 8, depth: 2 }, data: { kind: 'synthetic', grid: [8, 8], train: 8, val: 2 }, epochs: 1, batchSize: 4, clipNorm: 0.05, optimizer: { lr: 3e-3 } });
  const data = syntheticData(cfg.data as Parameters<typeof syntheticData>[0]);
  const t = new Trainer(cfg, data, backend);
  try {
    const steps = [];
    for (let s = 0; s < 5; s++) steps.push(await t.step(s % 2 ? [4, 5, 6, 7] : [0, 1, 2, 3]));
    const params = new Map<string, Float32Array>();
    for (const [k, v] of t.model.variables) params.set(k, (await v.data()) as Float32Array);
    const { metrics, blocks } = await t.evaluateSplit(data.val, true);
    return { steps, params, metrics, blocks, device: t.opt.device };
  } finally {
    t.dispose();
  }
}

test('5 training steps on webgpu match cpu to 1e-4 (loss, gradient norm, weights, validation with gates)', { skip: skip ?? false, timeout: 300_000 }, async () => {
  const cpu = await fiveSteps('cpu');
  const gpu = await fiveSteps('webgpu');
  await tf.setBackend('cpu');
  assert.equal(cpu.device, false, 'cpu keeps the host AdamW');
  assert.equal(gpu.device, true, 'webgpu runs AdamW on the device');
  assert.ok(cpu.steps.some((s) => s.gradNorm > 0.05), 'clipping is exercised');
  gpu.steps.forEach((s, i) => {
    const c = cpu.steps[i]!;
    assert.ok(Math.abs(s.loss - c.loss) <= 1e-4 * Math.abs(c.loss), `step ${i + 1}: loss ${s.loss} vs cpu ${c.loss}`);
    assert.ok(Math.abs(s.gradNorm - c.gradNorm) <= 1e-4 * c.gradNorm, `step ${i + 1}: grad norm ${s.gradNorm} vs cpu ${c.gradNorm}`);
    assert.ok(Math.abs(s.relL2 - c.relL2) <= 1e-4 * c.relL2, `step ${i + 1}: relL2`);
  });
  for (const [k, p] of cpu.params) assert.ok(relL2(gpu.params.get(k)!, p) <= 1e-4, `weights ${k} differ by ${relL2(gpu.params.get(k)!, p)}`);
  assert.ok(Math.abs(gpu.metrics.relL2 - cpu.metrics.relL2) <= 1e-4 * cpu.metrics.relL2, 'validation relL2');
  assert.equal(gpu.blocks.length, 2);
  gpu.blocks.forEach((b, i) => {
    assert.ok(relL2(b.alphaMean, cpu.blocks[i]!.alphaMean) <= 1e-4, `block ${i} alpha mean`);
    for (const [k, v] of Object.entries(cpu.blocks[i]!.scalars)) assert.ok(Math.abs(b.scalars[k]! - v) <= 1e-4 * (1 + Math.abs(v)), `block ${i} scalar ${k}`);
  });
});

test('a checkpoint written on webgpu resumes on wasm, and one written on wasm resumes on webgpu', { skip: skip ?? false, timeout: 300_000 }, async () => {
  const store = new RunStore(join(ws.path, 'runs'));
  const config = { name: 'x', model: { width: 6, depth: 1 }, data: { kind: 'synthetic', grid: [6, 6], train: 4, val: 2 }, epochs: 2, batchSize: 2, optimizer: { lr: 3e-3 } };
  const losses = (id: string) => store.open(id).readMetrics().records.filter((r) => r.type === 'step').map((r) => (r as { loss: number }).loss);
  await tf.setBackend('wasm');
  assert.equal((await trainRun(store.create(config, 'ref'))).state, 'done');
  for (const [first, second] of [['webgpu', 'wasm'], ['wasm', 'webgpu']] as const) {
    const id = `${first}-then-${second}`;
    const h = store.create(config, id);
    await tf.setBackend(first);
    assert.equal((await trainRun(h, { maxEpochsThisCall: 1 })).state, 'stopped');
    await tf.setBackend(second);
    assert.equal((await trainRun(h)).state, 'done');
    const want = losses('ref');
    const got = losses(id);
    assert.equal(got.length, want.length);
    got.forEach((l, i) => assert.ok(Math.abs(l - want[i]!) <= 1e-4 * Math.abs(want[i]!), `${id}: step ${i + 1} loss ${l} vs ${want[i]}`));
    assert.match(readFileSync(join(h.dir, 'events.log'), 'utf8'), new RegExp(`saved on backend '${first}', now '${second}'`));
  }
  await tf.setBackend('cpu');
});
