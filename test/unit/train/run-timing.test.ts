// A run carries its parameter count (runs.list / runs.get / runs.group),
// its queue time and its train time apart, and its base name (what ablation groups are named after).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import * as tf from '../../../main/ops/tf';
import { RunStore, groupSummary } from '../../../main/runs/run-store';
import { trainRun, parseRunConfig } from '../../../main/train/runner';
import { modelFor } from '../../../main/train/trainer';
import { loadTrainData } from '../../../main/train/data-source';
import { RunSummary } from '../../../main/api/contract';
import { tempDir } from '../../helpers/env';

const ws = tempDir('lino-run-timing-');
const store = new RunStore(join(ws.path, 'runs'));
before(async () => {
  await tf.setBackend('cpu');
});
after(() => ws.cleanup());

const config = (seed: number) => ({
  name: `darcy-a (seed ${seed})`,
  group: 'darcy-a/full',
  seed,
  model: { width: 6, depth: 1 },
  data: { kind: 'synthetic', grid: [6, 6], train: 4, val: 2 },
  epochs: 2,
  batchSize: 2,
});

test('runs carry their parameter count, queue time and train time apart, and their base name', async () => {
  const a = store.create(config(1), 'a');
  const b = store.create(config(2), 'b');
  assert.equal(store.open('a').summary().params, null, 'no checkpoint yet: no count');
  await trainRun(a);
  // b waits in the queue while a trains, then 300 ms more
  await new Promise((r) => setTimeout(r, 300));
  await trainRun(b);

  const cfg = parseRunConfig(a.readConfig());
  const model = modelFor(cfg, await loadTrainData(cfg.data));
  const want = model.numParams();
  model.dispose();

  const sa = store.open('a').summary(), sb = store.open('b').summary();
  for (const s of [sa, sb]) {
    assert.ok(RunSummary.safeParse(s).success, 'the summary fits the API contract');
    assert.equal(s.params, want, `${s.id}: params`);
    assert.equal(s.baseName, 'darcy-a');
    assert.ok(s.trainSeconds !== null && s.trainSeconds > 0, `${s.id}: trainSeconds ${s.trainSeconds}`);
    assert.ok(s.startedAt !== null && s.queuedAt !== null);
  }
  const wallB = (Date.parse(store.open('b').readStatus().updatedAt) - Date.parse(sb.queuedAt!)) / 1000;
  assert.ok(sb.queueSeconds! >= 0.3, `b queued ${sb.queueSeconds} s (it waited for a and 300 ms)`);
  assert.ok(sb.trainSeconds! < wallB - 0.25, `b's train time ${sb.trainSeconds} s excludes its queue time (wall ${wallB} s)`);
  assert.ok(Math.abs(sb.queueSeconds! + sb.trainSeconds! - wallB) < 0.5, 'queue + train account for the wall time');

  const g = groupSummary(store, 'darcy-a/full');
  assert.deepEqual(g.runs.map((r) => [r.id, r.params, r.name]), [['a', want, 'darcy-a (seed 1)'], ['b', want, 'darcy-a (seed 2)']]);
});
