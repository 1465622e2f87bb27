// runs.lightMapsCorrelation through the service both hosts use and the real engine: the
// job's table equals `lino lightmaps --correlate --csv` on the same tiny trained Darcy run (the CSV
// has 4 decimals); maxSamples takes the split's first samples; a wrong run, split or maxSamples is
// refused naming the field; the job cancels, and so does the shared loop between batches.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import * as tf from '../../main/ops/tf';
import { LightMapsCorrelationResult } from '../../main/api/contract';
import { RunStore } from '../../main/runs/run-store';
import { lightMapCorrelationRun } from '../../main/train/light-map-correlation-run';
import { engineService } from '../helpers/engine-service';
import { JobQueue } from '../../main/engine/jobs';
import { runLightMapsCorrelation } from '../../main/engine/light-maps-correlation-job';
import type { JobSummary } from '../../main/api/contract';

const { service, workspace, settled, events, trained } = engineService();
const root = new URL('../../', import.meta.url).pathname;

// 20 validation samples: three batches of the shared loop (8 per forward pass)
const config = {
  name: 'lm-correlation',
  model: { width: 6, depth: 2 },
  data: { kind: 'generate', benchmark: 'darcy', preset: 'tiny', samples: 26, resolution: 9, train: 6, val: 20, test: 0 },
  epochs: 1,
  batchSize: 2,
  seed: 4,
};

let runId = '';
const start = (p: Record<string, unknown>) => service.call('runs.lightMapsCorrelation', p as never) as Promise<{ id: string; kind: string }>;
async function table(p: Record<string, unknown>) {
  const job = await start(p);
  assert.equal(job.kind, 'lightmaps-correlation');
  const done = await settled(job.id, 120_000);
  assert.equal(done.state, 'done', done.error);
  return { job: done, result: LightMapsCorrelationResult.parse(done.result) };
}

test('a tiny trained LiNO run on Darcy data', { timeout: 200_000 }, async () => {
  const r = await trained(config, 180_000);
  assert.equal(r.state, 'done', r.reason);
  runId = r.id;
});

test('runs.lightMapsCorrelation: the job\'s table equals lino lightmaps --correlate --csv, with progress per batch', { timeout: 200_000 }, async () => {
  const { job, result } = await table({ id: runId, checkpoint: 'best', split: 'val' });
  assert.deepEqual([result.runId, result.checkpoint, result.split, result.samples, result.blocks.length], [runId, 'best', 'val', 20, 2]);
  const progress = events.filter((e) => e.type === 'job' && e.job.id === job.id && e.job.state === 'running').map((e) => (e as { job: { progress: number } }).job.progress);
  for (const f of [8 / 20, 16 / 20, 1]) assert.ok(progress.some((p) => Math.abs(p - f) < 1e-9), `progress ${f} reported: ${progress.join(', ')}`);
  const csv = join(workspace, 'corr.csv');
  const cli = spawnSync(process.execPath, [join(root, 'bin/lino.mjs'), 'lightmaps', '--run', join(workspace, 'runs', runId), '--checkpoint', 'best', '--split', 'val', '--correlate', '--csv', csv, '--backend', 'cpu'],
    { cwd: root, encoding: 'utf8', timeout: 170_000 });
  assert.equal(cli.status, 0, cli.stderr);
  const [head, ...rows] = readFileSync(csv, 'utf8').trim().split('\n').map((l) => l.split(','));
  const maps = head!.slice(2);
  let compared = 0;
  for (const row of rows) {
    const [b, stat] = [Number(row[0]), row[1] as 'pooled' | 'mean' | 'std'];
    const block = result.blocks[b]!;
    maps.forEach((m, i) => {
      const cell = block.maps.find((c) => c.map === m);
      const want = row[2 + i]!;
      if (want === '') return assert.equal(cell, undefined, `block ${b} ${m}: absent in both`);
      assert.ok(cell, `block ${b} ${m} present`);
      const got = cell[stat];
      if (want === 'nan') return assert.equal(got, null, `block ${b} ${m} ${stat}`);
      // the CSV rounds to 4 decimals; the CLI runs on cpu, the engine on its own backend
      assert.ok(got !== null && Math.abs(got - Number(want)) <= 5e-5 + 2e-6, `block ${b} ${m} ${stat}: API ${got} vs CLI ${want}`);
      compared++;
    });
  }
  assert.ok(compared >= 2 * 3 * 5, `every cell compared (${compared})`);
  for (const c of result.blocks.flatMap((b) => b.maps)) assert.ok(c.n > 0 && c.n <= 20, `${c.map}: n = ${c.n}`);

  const few = (await table({ id: runId, split: 'val', maxSamples: 3 })).result;
  assert.equal(few.samples, 3, 'maxSamples: the first 3 samples');
  assert.ok(few.blocks[0]!.maps.every((c) => c.n <= 3));
});

test('runs.lightMapsCorrelation refuses an unknown run, a non-LiNO run, non-Darcy data, a bad split or maxSamples', { timeout: 60_000 }, async () => {
  await assert.rejects(start({ id: 'no-such-run' }), /no-such-run/);
  await assert.rejects(start({ id: '../runs' }), /invalid parameter 'id'/);
  await assert.rejects(start({ id: runId, split: 'holdout' }), /invalid parameter 'split'/);
  await assert.rejects(start({ id: runId, checkpoint: 'first' }), /invalid parameter 'checkpoint'/);
  for (const maxSamples of [0, -2, 1.5, 'all']) await assert.rejects(start({ id: runId, maxSamples }), /invalid parameter 'maxSamples'/, String(maxSamples));
  await assert.rejects(start({ id: runId, workspace: '/tmp' }), /invalid parameter/);
  const store = new RunStore(join(workspace, 'runs'));
  const fno = store.create({ ...config, name: 'fno', model: { kind: 'fno', width: 8, depth: 1, modes: 2 } });
  await assert.rejects(start({ id: fno.id }), /'fno' model: it has no light maps/);
  const burgers = store.create({ ...config, name: 'burgers', data: { kind: 'generate', benchmark: 'burgers', preset: 'tiny', samples: 4, train: 2, val: 2, test: 0 } });
  await assert.rejects(start({ id: burgers.id }), (e: Error & { details?: { field?: string } }) => /field 'data\.benchmark' is 'burgers'.*Darcy.*input channel 0/.test(e.message) && e.details?.field === 'id');
  const synthetic = store.create({ ...config, name: 'synthetic', data: { kind: 'synthetic', grid: [8, 8], train: 4, val: 3, seed: 3 } });
  await assert.rejects(start({ id: synthetic.id }), /field 'data\.kind' is 'synthetic'.*Darcy/);
});

test('the correlation job cancels, and the shared loop stops between batches when aborted', { timeout: 120_000 }, async () => {
  const job = await start({ id: runId, split: 'val' });
  assert.equal(((await service.call('jobs.cancel', { id: job.id })) as { ok: boolean }).ok, true);
  const end = await settled(job.id, 60_000);
  assert.equal(end.state, 'cancelled');
  assert.equal(end.result, undefined, 'no table from a cancelled job');

  await tf.setBackend('cpu');
  const ac = new AbortController();
  const seen: number[] = [];
  await assert.rejects(
    lightMapCorrelationRun(new RunStore(join(workspace, 'runs')).open(runId), 'best', 'val', {
      signal: ac.signal,
      onProgress: (done) => {
        seen.push(done);
        ac.abort();
      },
    }),
    /cancelled/,
  );
  assert.deepEqual(seen, [8], 'stopped after the first batch');

  // the job itself, cancelled while running, at its first batch's progress: no further batch, no result
  const states: JobSummary[] = [];
  const q: JobQueue = new JobQueue((j) => {
    states.push(j);
    if (j.state === 'running' && j.progress > 0) q.cancel(j.id);
  });
  q.register('lightmaps-correlation', { label: () => 'correlation', run: runLightMapsCorrelation });
  const j = q.start('lightmaps-correlation', { workspace, id: runId, checkpoint: 'best', split: 'val' });
  for (const t0 = Date.now(); !states.some((s) => s.id === j.id && s.state === 'cancelled'); await new Promise((r) => setTimeout(r, 20))) {
    if (Date.now() - t0 > 60_000) throw new Error(`not cancelled: ${JSON.stringify(states.at(-1))}`);
  }
  assert.deepEqual(states.filter((s) => s.state === 'running' && s.progress > 0).map((s) => s.progress), [8 / 20], 'one batch ran');
  assert.equal(states.at(-1)!.result, undefined);
});
