// Data-parallel training runs (config.workers > 1, main/train/parallel-grads.ts) against one
// thread on the cpu backend: the same parameters and loss curve, resume across worker counts,
// a crashed worker fails the run readably and leaves it resumable. Real worker threads.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import * as tf from '../../../main/ops/tf';
import { TrainConfig, type TrainConfigInput } from '../../../main/api/contract';
import { Trainer, modelConfigFor } from '../../../main/train/trainer';
import { autoregressiveSpec } from '../../../main/train/data';
import { syntheticData } from '../../../main/train/synthetic-data';
import { ParallelGradients, splitShares } from '../../../main/train/parallel-grads';
import { RunStore } from '../../../main/runs/run-store';
import { trainRun, parseRunConfig, dataParallelWorkers } from '../../../main/train/runner';
import { availableParallelism, totalmem } from 'node:os';
import { writeJsonAtomic } from '../../../main/util/atomic-file';
import { tempDir } from '../../helpers/env';

const ws = tempDir('lino-dp-');
const store = new RunStore(join(ws.path, 'runs'));
before(async () => {
  await tf.setBackend('cpu');
});
after(() => ws.cleanup());

function maxRelDiff(a: ArrayLike<number>, b: ArrayLike<number>): number {
  let m = 0;
  for (let i = 0; i < a.length; i++) m = Math.max(m, Math.abs(a[i]! - b[i]!) / (1e-3 + Math.abs(b[i]!)));
  return m;
}

test('splitShares: contiguous shares covering the batch in order', () => {
  assert.deepEqual(splitShares(5, 2), [{ start: 0, n: 3 }, { start: 3, n: 2 }]);
  assert.deepEqual(splitShares(2, 4), [{ start: 0, n: 1 }, { start: 1, n: 1 }]);
  assert.deepEqual(splitShares(4, 1), [{ start: 0, n: 4 }]);
});

for (const task of ['operator', 'autoregressive'] as const) {
  test(`workers=2 trains to the same parameters and loss curve as workers=1 (${task})`, { timeout: 120_000 }, async () => {
    const cfg = TrainConfig.parse({
      model: { width: 8, depth: 2 },
      data: { kind: 'synthetic', task, grid: [8, 8], train: 10, val: 3, tIn: 2, tOut: 2 },
      epochs: 2, batchSize: 5, optimizer: { lr: 3e-3 }, clipNorm: 0.05, // small: clipping is active
    } satisfies TrainConfigInput);
    const data = syntheticData(cfg.data as Parameters<typeof syntheticData>[0]);
    const one = new Trainer(cfg, data, 'cpu', { microBatch: 2 });
    const two = new Trainer(cfg, data, 'cpu', { microBatch: 2 });
    two.parallel = await ParallelGradients.create(2, cfg.model.kind, modelConfigFor(cfg, data), 'cpu', {
      ar: autoregressiveSpec(data), microBatch: 2, checkpointBlocks: false, rolloutCheckpointing: true,
    });
    try {
      const s1: number[] = [], s2: number[] = [];
      const e1 = [await one.runEpoch({ onStep: (s) => s1.push(s.loss) }), await one.runEpoch({ onStep: (s) => s1.push(s.loss) })];
      const first = await two.runEpoch({ onStep: (s) => s2.push(s.loss) });
      const n0 = tf.memory().numTensors;
      const e2 = [first, await two.runEpoch({ onStep: (s) => s2.push(s.loss) })];
      assert.equal(s2.length, 4);
      s1.forEach((l, i) => assert.ok(Math.abs(l - s2[i]!) <= 1e-5 * Math.abs(l), `step ${i + 1}: loss ${s2[i]} vs ${l}`));
      e1.forEach((e, i) => assert.ok(Math.abs(e.val.relL2 - e2[i]!.val.relL2) <= 1e-5 * e.val.relL2, `epoch ${i + 1} val relL2`));
      for (const [k, v] of one.model.variables) {
        const d = maxRelDiff(two.model.variables.get(k)!.dataSync(), v.dataSync());
        assert.ok(d < 1e-5, `parameter ${k} differs by ${d}`);
      }
      const m1 = await one.opt.getState(), m2 = await two.opt.getState();
      assert.equal(m2.step, m1.step);
      for (const [k, a] of m1.expAvg) assert.ok(maxRelDiff(m2.expAvg.get(k)!.data, a.data) < 1e-4, `exp_avg ${k}`);
      assert.deepEqual(e2[1]!.blocks.map((b) => b.components), e1[1]!.blocks.map((b) => b.components));
      assert.ok(two.parallel.lastWorkerMs.length === 1 && two.parallel.lastWorkerMs[0]! > 0, 'the worker computed its share');
      assert.equal(tf.memory().numTensors, n0, 'no tensors left behind by the parallel steps');
    } finally {
      await two.parallel?.close();
      one.dispose();
      two.dispose();
    }
  });
}

const config = (over: Record<string, unknown> = {}) => ({
  name: 'dp',
  model: { width: 6, depth: 1 },
  data: { kind: 'synthetic', grid: [6, 6], train: 6, val: 3 },
  epochs: 3,
  batchSize: 3,
  optimizer: { lr: 3e-3 },
  ...over,
});
const setWorkers = (id: string, workers: number) => {
  const h = store.open(id);
  writeJsonAtomic(h.configPath, { ...(h.readConfig() as object), workers });
};
const losses = (id: string) => store.open(id).readMetrics().records.filter((r) => r.type === 'step').map((r) => (r as { loss: number }).loss);
const closeTo = (a: number[], b: number[], what: string) => {
  assert.equal(a.length, b.length, `${what}: ${a.length} vs ${b.length} steps`);
  a.forEach((v, i) => assert.ok(Math.abs(v - b[i]!) <= 1e-5 * Math.abs(b[i]!), `${what}: step ${i + 1} loss ${v} vs ${b[i]}`));
};

test('a run resumes across worker counts (2 -> 1 -> 2) with the loss curve of a one-worker run', { timeout: 120_000 }, async () => {
  assert.equal(parseRunConfig(config()).workers, 1, 'default: one thread');
  assert.throws(() => parseRunConfig({ ...config(), workers: 9 }), /field 'workers'/);
  const ref = store.create(config(), 'dp-ref');
  assert.equal((await trainRun(ref)).state, 'done');
  const h = store.create(config({ workers: 2 }), 'dp-mixed');
  assert.equal((await trainRun(h, { maxEpochsThisCall: 1 })).state, 'stopped');
  setWorkers('dp-mixed', 1);
  assert.equal((await trainRun(h, { maxEpochsThisCall: 1 })).state, 'stopped');
  setWorkers('dp-mixed', 2);
  assert.equal((await trainRun(h)).state, 'done');
  closeTo(losses('dp-mixed'), losses('dp-ref'), 'mixed worker counts');
  const log = readFileSync(join(h.dir, 'events.log'), 'utf8');
  assert.match(log, /data-parallel: 2 threads per step/);
  assert.match(log, /resuming from checkpoints\/last: epoch 2/);
});

test('a crashed worker fails the run with a readable reason; the run resumes from its last checkpoint', { timeout: 120_000 }, async () => {
  const h = store.create(config({ workers: 2, epochs: 2 }), 'dp-crash');
  let steps = 0;
  let pool: ParallelGradients | undefined;
  await assert.rejects(trainRun(h, {
    onWorkers: (p) => { pool = p; },
    onStep: () => { steps++; },
    // epoch 1 is checkpointed: now the worker dies as a crash would
    onEpoch: () => { void pool!.killForTest(0); },
  }), /data-parallel worker 1 exited with code \d+/);
  const st = h.readStatus();
  assert.equal(st.state, 'failed');
  assert.match(st.reason!, /data-parallel worker 1 exited with code \d+; checkpoints\/last \(epoch 1\) is the last good state/);
  assert.ok(steps >= 2);
  setWorkers('dp-crash', 1);
  assert.equal((await trainRun(h)).state, 'done');
  assert.equal(h.readStatus().epoch, 2);
});

test('worker count: auto = cores (max 8), capped by the batch size and the RAM; 1 on tfjs-node and webgpu with the reason logged', () => {
  const cfg = (o: Record<string, unknown>) => parseRunConfig({ ...config(), ...o });
  const logs: string[] = [];
  const log = (m: string) => logs.push(m);
  assert.equal(dataParallelWorkers(cfg({ workers: 'auto', batchSize: 64 }), 'wasm', log), Math.min(availableParallelism(), 8));
  assert.equal(dataParallelWorkers(cfg({ workers: 4, batchSize: 2 }), 'cpu', log), 2);
  assert.match(logs.at(-1)!, /4 asked, 2 used \(batch size 2\)/);
  assert.equal(dataParallelWorkers(cfg({ workers: 4 }), 'tensorflow', log), 1);
  assert.match(logs.at(-1)!, /backend 'tensorflow' already uses every core/);
  assert.equal(dataParallelWorkers(cfg({ workers: 4 }), 'webgpu', log), 1);
  assert.match(logs.at(-1)!, /4 asked, training with 1: backend 'webgpu' runs on the GPU from one thread/);
  assert.equal(dataParallelWorkers(cfg({ workers: 3 }), 'wasm', log, totalmem() * 0.3), 2);
  assert.match(logs.at(-1)!, /3 threads would need about .* GiB \(.* GiB usable\); 2 used/);
});
