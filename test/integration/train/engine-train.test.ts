// Training through the real engine process, driven by the same service both hosts use:
// a tiny generated Darcy run and a tiny autoregressive run train with decreasing loss, live
// metrics arrive throttled without losing steps, pause/resume/stop, evaluation with resolution
// transfer, and an engine killed mid-run leaves an interrupted run that resumes to the end.
import { test, after, before } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { WorkbenchService } from '../../../main/services/workbench-service';
import { forkLauncher } from '../../../main/services/engine-launcher';
import type { EvaluationResult, JobSummary, RunSummary, StepMetrics, WorkbenchEvent } from '../../../main/api/contract';
import { tempDir, isolateConfig } from '../../helpers/env';
import { waitFor } from '../../helpers/wait';

const prevBackend = process.env.LINO_BACKEND;
process.env.LINO_BACKEND = 'cpu'; // bit-stable and available everywhere
const restore = isolateConfig();
const ws = tempDir('lino-train-api-');
const service = new WorkbenchService({ host: 'browser', launcher: forkLauncher, workspace: ws.path });
const events: { t: number; e: WorkbenchEvent }[] = [];
service.onEvent((e) => events.push({ t: Date.now(), e }));
before(async () => {
  await service.call('engine.info', {});
});
after(async () => {
  await service.dispose();
  ws.cleanup();
  restore();
  if (prevBackend === undefined) delete process.env.LINO_BACKEND;
  else process.env.LINO_BACKEND = prevBackend;
});


const runEnd = (runId: string, from = 0) =>
  waitFor(() => events.slice(from).find((x) => x.e.type === 'run' && x.e.runId === runId && ['done', 'failed', 'stopped'].includes(x.e.state))?.e as Extract<WorkbenchEvent, { type: 'run' }> | undefined, 180_000, `run ${runId} to end`);

const tiny = (over: Record<string, unknown> = {}) => ({
  name: 'api tiny',
  model: { width: 8, depth: 1 },
  epochs: 4,
  batchSize: 2,
  optimizer: { lr: 5e-3 },
  ...over,
});

test('a tiny generated Darcy run trains in the engine with decreasing loss; metrics stream throttled and complete', async () => {
  const from = events.length;
  const { runId } = (await service.call('train.start', {
    config: tiny({ data: { kind: 'generate', benchmark: 'darcy', preset: 'tiny', samples: 8, train: 6, val: 2 } }),
  })) as { runId: string; job: JobSummary };
  const end = await runEnd(runId, from);
  assert.equal(end.state, 'done', end.reason);
  const mine = events.slice(from).filter((x) => x.e.type === 'metrics' && x.e.runId === runId);
  const streamed = mine.flatMap((x) => (x.e as Extract<WorkbenchEvent, { type: 'metrics' }>).steps);
  const file = (await service.call('runs.metrics', { id: runId, type: 'step' })) as { records: StepMetrics[] };
  assert.equal(file.records.length, 4 * 3);
  assert.deepEqual(streamed.map((s) => s.step), file.records.map((s) => s.step), 'every step reaches the views');
  // At most 20 messages a second (measured where they arrive, so allow for transport jitter).
  for (let i = 0; i + 20 < mine.length; i++) assert.ok(mine[i + 20]!.t - mine[i]!.t >= 900, `21 metrics messages within ${mine[i + 20]!.t - mine[i]!.t} ms`);
  const epochs = mine.map((x) => (x.e as Extract<WorkbenchEvent, { type: 'metrics' }>).epoch).filter(Boolean);
  assert.equal(epochs.length, 4);
  assert.ok(epochs[3]!.train.loss < epochs[0]!.train.loss, `train loss ${epochs[0]!.train.loss} -> ${epochs[3]!.train.loss}`);
  assert.equal(epochs[0]!.backend, 'cpu');
  assert.ok(epochs[0]!.blocks[0]!.alphaMean.length === 3 && epochs[0]!.peakRssBytes > 0 && epochs[0]!.samplesPerSec > 0);
  const list = (await service.call('runs.list', {})) as RunSummary[];
  const s = list.find((r) => r.id === runId)!;
  assert.equal(s.state, 'done');
  assert.equal(s.epochsDone, 4);
  const got = (await service.call('runs.get', { id: runId })) as { config: { resolvedData?: { grid: number[] } } };
  assert.deepEqual(got.config.resolvedData!.grid, [29, 29]);

  // Evaluate the best checkpoint at the training grid and at another one (resolution transfer).
  const job = (await service.call('runs.evaluate', { id: runId, resolutions: [21], exportPredictions: true })) as JobSummary;
  const done = await waitFor(() => {
    const j = [...events].reverse().find((x) => x.e.type === 'job' && x.e.job.id === job.id)?.e as Extract<WorkbenchEvent, { type: 'job' }> | undefined;
    return j && ['done', 'failed'].includes(j.job.state) ? j.job : undefined;
  });
  assert.equal(done.state, 'done', done.error);
  const ev = done.result as EvaluationResult;
  assert.deepEqual(ev.resolutions.map((r) => r.grid), [[29, 29], [21, 21]]);
  for (const r of ev.resolutions) {
    assert.equal(r.n, 2);
    assert.ok(r.metrics.relL2 > 0 && r.metrics.relL2Decoded > 0);
    assert.ok(r.perSample.find((p) => p.index === r.best)!.relL2 <= r.perSample.find((p) => p.index === r.worst)!.relL2);
    assert.ok(r.predictionsFile && existsSync(r.predictionsFile));
  }

  // fields: the best/median/worst samples in physical units, for the Fields view.
  const job2 = (await service.call('runs.evaluate', { id: runId, fields: true, indices: [1], resolutions: [21] })) as JobSummary;
  const done2 = await waitFor(() => {
    const j = [...events].reverse().find((x) => x.e.type === 'job' && x.e.job.id === job2.id)?.e as Extract<WorkbenchEvent, { type: 'job' }> | undefined;
    return j && ['done', 'failed'].includes(j.job.state) ? j.job : undefined;
  });
  assert.equal(done2.state, 'done', done2.error);
  const r0 = (done2.result as EvaluationResult).resolutions[0]!;
  assert.deepEqual(r0.fields!.map((f) => [f.which, f.index]), [['best', r0.best], ['median', r0.median], ['worst', r0.worst], ['index', 1]]);
  // Fields at the transfer resolution too (the same samples on the other grid).
  const r1 = (done2.result as EvaluationResult).resolutions[1]!;
  assert.deepEqual(r1.grid, [21, 21]);
  assert.equal(r1.fields![3]!.prediction[0]!.length, 21 * 21);
  for (const f of r0.fields!) {
    assert.deepEqual([f.input.length, f.reference.length, f.prediction.length], [1, 1, 1], 'one data channel each (coordinates left out)');
    for (const a of [f.input[0]!, f.reference[0]!, f.prediction[0]!]) assert.equal(a.length, 29 * 29);
    // relL2 on decoded fields recomputed from what is returned equals the reported one.
    let num = 0;
    let den = 0;
    f.reference[0]!.forEach((v, i) => {
      num += (f.prediction[0]![i]! - v) ** 2;
      den += v * v;
    });
    const per = r0.perSample.find((p) => p.index === f.index)!;
    assert.equal(f.relL2Decoded, per.relL2Decoded);
    assert.ok(Math.abs(Math.sqrt(num / den) - per.relL2Decoded) < 1e-4 * per.relL2Decoded + 1e-6, `decoded relL2 ${Math.sqrt(num / den)} vs ${per.relL2Decoded}`);
  }
  // The Darcy input (permeability) is piecewise constant with two values in physical units.
  assert.ok(new Set(r0.fields![0]!.input[0]!.map((v) => v.toFixed(3))).size <= 3, 'input decoded to physical values');
});

test('pause holds the run between steps; resume continues; stop ends it resumable; queued runs run in order', async () => {
  const from = events.length;
  const cfg = tiny({ epochs: 40, data: { kind: 'synthetic', grid: [8, 8], train: 8, val: 2 } });
  const a = (await service.call('train.start', { config: cfg })) as { runId: string };
  const b = (await service.call('train.start', { config: { ...cfg, epochs: 2, name: 'second' } })) as { runId: string };
  await waitFor(() => events.slice(from).some((x) => x.e.type === 'metrics' && x.e.runId === a.runId && x.e.steps.length > 0), 60_000, 'first steps');
  assert.deepEqual(await service.call('train.pause', { id: a.runId }), { ok: true });
  try {
    // The pause takes effect at the next step boundary.
    let state = '';
    const t0 = Date.now();
    while (state !== 'paused' && Date.now() - t0 < 60_000) {
      state = ((await service.call('runs.get', { id: a.runId })) as { status: { state: string } }).status.state;
      await new Promise((r) => setTimeout(r, 50));
    }
    assert.equal(state, 'paused');
  } catch (e) {
    await service.call('train.stop', { id: a.runId });
    await service.call('train.stop', { id: b.runId });
    throw e;
  }
  await new Promise((r) => setTimeout(r, 100));
  const n0 = events.filter((x) => x.e.type === 'metrics' && x.e.runId === a.runId).length;
  await new Promise((r) => setTimeout(r, 300));
  assert.equal(events.filter((x) => x.e.type === 'metrics' && x.e.runId === a.runId).length, n0, 'no steps while paused');
  await service.call('train.resume', { id: a.runId });
  await waitFor(() => events.filter((x) => x.e.type === 'metrics' && x.e.runId === a.runId).length > n0, 30_000, 'steps after resume');
  assert.deepEqual(await service.call('train.stop', { id: a.runId }), { ok: true });
  const endA = await runEnd(a.runId, from);
  assert.equal(endA.state, 'stopped');
  // The queued second run starts only after the first one ended, and finishes.
  const endB = await runEnd(b.runId, from);
  assert.equal(endB.state, 'done');
  const firstB = events.findIndex((x, i) => i >= from && x.e.type === 'run' && x.e.runId === b.runId && x.e.state === 'running');
  const stopA = events.findIndex((x, i) => i >= from && x.e.type === 'run' && x.e.runId === a.runId && x.e.state === 'stopped');
  assert.ok(firstB > stopA, 'runs execute one after another');
  const listed = ((await service.call('runs.list', {})) as RunSummary[]).find((r) => r.id === a.runId)!;
  assert.equal(listed.state, 'stopped');
});

test('a tiny generated Navier-Stokes run: engine killed mid-run, listed interrupted, resumes to the end with decreasing loss', async () => {
  const from = events.length;
  const { runId } = (await service.call('train.start', {
    config: tiny({ epochs: 5, batchSize: 1, data: { kind: 'generate', benchmark: 'navier-stokes', preset: 'tiny', samples: 4, frames: 6, train: 3, val: 1, tIn: 3, tOut: 3, resolution: 16 } }),
  })) as { runId: string };
  await waitFor(() => events.slice(from).some((x) => x.e.type === 'metrics' && x.e.runId === runId && x.e.epoch), 120_000, 'a first epoch');
  process.kill(service.engine.pid!, 'SIGKILL');
  await waitFor(() => events.slice(from).some((x) => x.e.type === 'engine' && x.e.state === 'crashed'), 30_000, 'crash event');
  const listed = ((await service.call('runs.list', {})) as RunSummary[]).find((r) => r.id === runId)!;
  assert.equal(listed.state, 'interrupted');
  assert.ok(listed.epochsDone >= 1);
  const from2 = events.length;
  await service.call('train.resume', { id: runId });
  const end = await runEnd(runId, from2);
  assert.equal(end.state, 'done', end.reason);
  const epochs = ((await service.call('runs.metrics', { id: runId, type: 'epoch' })) as { records: { epoch: number; train: { loss: number }; val: { steps?: { mean: number[] } } }[] }).records;
  assert.deepEqual(epochs.map((e) => e.epoch), [1, 2, 3, 4, 5]);
  assert.ok(epochs[4]!.train.loss < epochs[0]!.train.loss, `autoregressive loss ${epochs[0]!.train.loss} -> ${epochs[4]!.train.loss}`);
  assert.equal(epochs[4]!.val.steps!.mean.length, 3, 'per-step validation curve');
  // Rollout fields (the Rollout view): every frame of the trajectory and its per-step error.
  const evJob = (await service.call('runs.evaluate', { id: runId, checkpoint: 'last', fields: true, rolloutSteps: 2 })) as JobSummary;
  const evDone = await waitFor(() => {
    const j = [...events].reverse().find((x) => x.e.type === 'job' && x.e.job.id === evJob.id)?.e as Extract<WorkbenchEvent, { type: 'job' }> | undefined;
    return j && ['done', 'failed'].includes(j.job.state) ? j.job : undefined;
  }, 60_000, 'rollout evaluation');
  assert.equal(evDone.state, 'done', evDone.error);
  const rr = (evDone.result as EvaluationResult).resolutions[0]!;
  const f = rr.fields![0]!;
  assert.deepEqual([f.input.length, f.reference.length, f.prediction.length], [3, 2, 2], 'T_in history frames, then one frame per rollout step');
  assert.equal(f.prediction[1]!.length, 16 * 16);
  assert.equal(f.stepRelL2!.length, 2);
  // One validation trajectory: its per-step errors are the split's per-step mean.
  f.stepRelL2!.forEach((v, t) => assert.ok(Math.abs(v - rr.metrics.steps!.mean[t]!) < 1e-6 * (1 + v)));
  f.reference.forEach((ref, t) => {
    let num = 0;
    let den = 0;
    ref.forEach((v, i) => { num += (f.prediction[t]![i]! - v) ** 2; den += v * v; });
    assert.ok(Math.abs(Math.sqrt(num / den) - f.stepRelL2![t]!) < 1e-4 * f.stepRelL2![t]! + 1e-6, `step ${t}: ${Math.sqrt(num / den)} vs ${f.stepRelL2![t]}`);
  });
  const cfg = ((await service.call('runs.get', { id: runId })) as { config: { resolvedData: { contentHash: string; normalization: { scope: string } } } }).config;
  assert.match(cfg.resolvedData.contentHash, /^[0-9a-f]{64}$/);
  assert.match(cfg.resolvedData.normalization.scope, /apart/, 'the release\'s separate normalizer by default');
});

test('a run group trains one run per seed and reports mean ± std of the best validation error', async () => {
  const from = events.length;
  const r = (await service.call('train.start', { config: tiny({ epochs: 2, seed: 7, group: 'g1', data: { kind: 'synthetic', grid: [8, 8], train: 4, val: 2 } }), seeds: 2 })) as { group: { runId: string }[] };
  assert.equal(r.group.length, 2);
  for (const g of r.group) assert.equal((await runEnd(g.runId, from)).state, 'done');
  const sum = (await service.call('runs.group', { group: 'g1' })) as { runs: { seed: number; valRelL2: number }[]; valRelL2: { mean: number; std: number } };
  assert.deepEqual(sum.runs.map((x) => x.seed).sort(), [7, 8]);
  const v = sum.runs.map((x) => x.valRelL2);
  assert.ok(v[0] !== v[1], 'different seeds, different runs');
  assert.ok(Math.abs(sum.valRelL2.mean - (v[0]! + v[1]!) / 2) < 1e-12);
  assert.ok(sum.valRelL2.std > 0);
});
