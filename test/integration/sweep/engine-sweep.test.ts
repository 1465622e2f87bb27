// Sweeps through the real engine process and the service both hosts use (what the Sweeps view
// calls): a random sweep with ASHA whose trials train through train.start's engine path; pause,
// resume, stop and resume again; every trial an ordinary run in runs.list; a bad sweep refused
// with the field named.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { engineService } from '../../helpers/engine-service';
import type { RunSummary, SweepDetail, SweepSummary } from '../../../main/api/contract';

process.env.LINO_BACKEND = 'cpu';
// trials in the engine thread: the same TrainingJobs.start path without a worker's tfjs start-up per trial
process.env.LINO_TRAIN_IN_THREAD = '1';
const { service } = engineService();
const base = { data: { kind: 'synthetic', grid: [16], train: 8, val: 2 }, model: { width: 4, depth: 1 }, batchSize: 4, epochs: 3 };
const sweep = {
  name: 'ui-asha', base, method: 'random', samplerSeed: 5,
  axes: [{ path: 'optimizer.lr', logRange: [1e-5, 3e-2] }, { path: 'model.width', values: [4, 6] }],
  budget: { maxTrials: 4 }, earlyStopping: { minEpochs: 1, eta: 2 },
};

async function until(id: string, pred: (d: SweepDetail) => boolean, ms = 300_000): Promise<SweepDetail> {
  for (const t0 = Date.now(); ; await new Promise((r) => setTimeout(r, 100))) {
    const d = (await service.call('sweeps.get', { id } as never)) as SweepDetail;
    if (pred(d)) return d;
    if (Date.now() - t0 > ms) throw new Error(`sweep ${id}: timed out (${JSON.stringify(d.summary)})`);
  }
}

test('a random sweep with ASHA through the engine: pause, resume, stop, resume; trials are runs; rungs recorded', { timeout: 400_000 }, async () => {
  const s = (await service.call('sweeps.start', { config: sweep } as never)) as SweepSummary;
  assert.equal(s.active, true);
  await until(s.id, (d) => d.state.trials.some((t) => t.state === 'running'));
  let c = (await service.call('sweeps.control', { id: s.id, action: 'pause' } as never)) as SweepSummary;
  assert.equal(c.status, 'paused');
  c = (await service.call('sweeps.control', { id: s.id, action: 'resume' } as never)) as SweepSummary;
  assert.equal(c.status, 'running');
  await until(s.id, (d) => d.state.trials.length >= 2 && d.state.trials[1]!.state === 'running');
  c = (await service.call('sweeps.control', { id: s.id, action: 'stop' } as never)) as SweepSummary;
  const stopped = await until(s.id, (d) => !d.summary.active);
  assert.equal(stopped.summary.status, 'stopped');
  // starting the same sweep again resumes it (same id); it runs to its budget
  const again = (await service.call('sweeps.start', { config: sweep } as never)) as SweepSummary;
  assert.equal(again.id, s.id);
  const d = await until(s.id, (x) => !x.summary.active && x.summary.status === 'done');
  assert.equal(d.state.trials.length, 4);
  assert.match(d.summary.reason ?? '', /budget/);
  const ids = d.state.trials.map((t) => t.runId);
  assert.equal(new Set(ids).size, 4);
  for (const t of d.state.trials) {
    assert.ok(t.state === 'done' || t.state === 'pruned', JSON.stringify(t));
    assert.ok(t.rungHistory.length >= 1, JSON.stringify(t));
  }
  const runs = (await service.call('runs.list', {})) as RunSummary[];
  for (const id of ids) assert.ok(runs.some((r) => r.id === id), `run ${id} listed`);
  assert.equal(d.analysis.bestSoFar.length, 4);
  const list = (await service.call('sweeps.list', {})) as SweepSummary[];
  assert.ok(list.some((x) => x.id === s.id && x.status === 'done'));
});

test('a bad sweep is refused naming the field; an unknown sweep is refused', async () => {
  await assert.rejects(service.call('sweeps.start', { config: { base, axes: [{ path: 'model.width', values: [0] }] } } as never), /axes\[0\] \('model.width'\)/);
  await assert.rejects(service.call('sweeps.get', { id: 'nope' } as never), /sweep 'nope' not found/);
  // each trial is a run: refused as train.start refuses its configuration (hardening III repro 6)
  await assert.rejects(service.call('sweeps.start', { config: { base, axes: [{ path: 'backend', values: ['cpu', 'bogus'] }] } } as never),
    /sweeps\.start: config: configuration c1 \{"backend":"bogus"\}: field 'backend': expected one of .*got "bogus"/);
  const list = (await service.call('sweeps.list', {})) as SweepSummary[];
  assert.ok(!list.some((x) => x.name === 'sweep' && x.trials === 0), 'no sweep made');
});
