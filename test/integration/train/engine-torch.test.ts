// A PyTorch run through the real engine process (train.start with backend 'torch'): live metrics
// events and job progress as for an engine run, pause (status paused), stop (stopped, resumable),
// resume; kill -9 of Python leaves the run interrupted with its last checkpoint, resumable; an
// engine restart while Python trains finds the run still training, and the new engine can stop it.
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { WorkbenchEvent } from '../../../main/api/contract';
import { engineService } from '../../helpers/engine-service';
import { waitFor } from '../../helpers/wait';

const PY = '/usr/bin/python3';
const skip = spawnSync(PY, ['-c', 'import torch, numpy']).status !== 0 ? `${PY} cannot import torch and numpy` : false;
process.env.LINO_PYTHON = PY; // the forked engine inherits it
process.env.OMP_NUM_THREADS = '1';
const { service, events, workspace } = engineService();
before(async () => {
  await service.call('engine.info', {});
});

// long enough to pause, stop and restart the engine while it trains (each step a few ms)
const config = (name: string, epochs = 400) => ({
  name,
  model: { width: 8, depth: 1 },
  data: { kind: 'synthetic', grid: [8, 8], train: 8, val: 2 },
  epochs,
  batchSize: 2,
  backend: 'torch',
  torch: { device: 'cpu' },
});
type RunEvent = Extract<WorkbenchEvent, { type: 'run' }>;
const status = async (id: string) => ((await service.call('runs.get', { id })) as { status: { state: string; pid: number | null; epoch?: number; reason?: string } }).status;
const runEvent = (id: string, from: number, states: string[], ms = 90_000) =>
  waitFor(() => events.slice(from).find((e): e is RunEvent => e.type === 'run' && e.runId === id && states.includes(e.state)), ms, `run ${id}: ${states.join('/')}`);
const metricsFor = (id: string, from: number) => events.slice(from).filter((e): e is Extract<WorkbenchEvent, { type: 'metrics' }> => e.type === 'metrics' && e.runId === id);

test('train.torch reports the interpreter; engine.info carries it', { skip }, async () => {
  const r = (await service.call('train.torch', {})) as { ok: boolean; torch?: string; python: string };
  assert.equal(r.ok, true);
  assert.equal(r.python, PY);
  const info = (await service.call('engine.info', {})) as { torch?: { ok: boolean } };
  assert.equal(info.torch?.ok, true);
});

test('live metrics, pause, stop, resume to the end', { skip, timeout: 240_000 }, async () => {
  const from = events.length;
  const { runId } = (await service.call('train.start', { config: config('torch live', 30) })) as { runId: string };
  // live step and epoch records, and the job's progress with an ETA, as for an engine run
  await waitFor(() => metricsFor(runId, from).some((m) => m.epoch), 90_000, 'an epoch record');
  await waitFor(() => events.slice(from).some((e) => e.type === 'job' && e.job.kind === 'train' && e.job.progress > 0 && e.job.etaSeconds != null), 30_000, 'progress with an ETA');
  assert.deepEqual(await service.call('train.pause', { id: runId }), { ok: true });
  await waitFor(async () => (await status(runId)).state === 'paused', 30_000, 'status paused');
  await new Promise((r) => setTimeout(r, 500)); // the records written before the pause are still on their way
  const n = metricsFor(runId, from).flatMap((m) => m.steps).length;
  await new Promise((r) => setTimeout(r, 800));
  assert.ok(metricsFor(runId, from).flatMap((m) => m.steps).length === n, 'no steps while paused');
  await service.call('train.resume', { id: runId });
  await waitFor(async () => (await status(runId)).state === 'running', 30_000, 'running again');
  const stopFrom = events.length;
  await service.call('train.stop', { id: runId });
  const stopped = await runEvent(runId, stopFrom, ['stopped', 'done']);
  assert.equal(stopped.state, 'stopped', 'stopped before the end');
  const ep = (await status(runId)).epoch ?? 0;
  const resumeFrom = events.length;
  await service.call('train.resume', { id: runId });
  const end = await runEvent(runId, resumeFrom, ['done', 'failed', 'stopped']);
  assert.equal(end.state, 'done', end.reason);
  const log = readFileSync(join(workspace, 'runs', runId, 'events.log'), 'utf8');
  assert.match(log, new RegExp(`resuming from checkpoints/last: epoch ${ep}`));
  const epochs = readFileSync(join(workspace, 'runs', runId, 'metrics.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l) as { type: string; epoch: number }).filter((r) => r.type === 'epoch').map((r) => r.epoch);
  assert.deepEqual(epochs, Array.from({ length: 30 }, (_, i) => i + 1), 'every epoch once, in order');
});

test('kill -9 of Python: the run is interrupted with its last checkpoint and resumes', { skip, timeout: 240_000 }, async () => {
  const from = events.length;
  const { runId } = (await service.call('train.start', { config: config('torch killed', 40) })) as { runId: string };
  await waitFor(() => metricsFor(runId, from).some((m) => m.epoch && m.epoch.epoch >= 2), 90_000, 'two epochs');
  const st = await status(runId);
  process.kill(st.pid!, 'SIGKILL');
  const ev = await runEvent(runId, from, ['interrupted', 'failed', 'done']);
  assert.equal(ev.state, 'interrupted', ev.reason);
  const after = await status(runId);
  assert.equal(after.state, 'interrupted');
  const again = events.length;
  await service.call('train.resume', { id: runId });
  const end = await runEvent(runId, again, ['done', 'failed', 'stopped']);
  assert.equal(end.state, 'done', end.reason);
});

test('an engine restart while Python trains: the run is still training, and the new engine stops it', { skip, timeout: 240_000 }, async () => {
  const from = events.length;
  const { runId } = (await service.call('train.start', { config: config('torch restart', 2000) })) as { runId: string };
  await waitFor(() => metricsFor(runId, from).some((m) => m.epoch), 90_000, 'an epoch');
  const before = await status(runId);
  await service.call('engine.restart', {});
  await service.call('engine.info', {});
  const st = await status(runId);
  assert.equal(st.state, 'running', `after the restart: ${JSON.stringify(st)}`);
  assert.equal(st.pid, before.pid, 'the same Python process');
  const epochBefore = st.epoch ?? 0;
  await waitFor(async () => ((await status(runId)).epoch ?? 0) > epochBefore, 60_000, 'Python trains on');
  assert.deepEqual(await service.call('train.stop', { id: runId }), { ok: true });
  await waitFor(async () => (await status(runId)).state === 'stopped', 60_000, 'stopped');
});

test('a sweep whose base config says backend torch trains its trials on PyTorch', { skip, timeout: 240_000 }, async () => {
  const sweep = {
    name: 'torch-sweep',
    base: config('torch sweep', 2),
    method: 'grid',
    axes: [{ path: 'optimizer.lr', values: [1e-3, 3e-3] }],
  };
  const s = (await service.call('sweeps.start', { config: sweep } as never)) as { id: string };
  let d: { summary: { active: boolean; status: string }; state: { trials: { runId: string; state: string }[] } } | null = null;
  for (const t0 = Date.now(); Date.now() - t0 < 200_000; await new Promise((r) => setTimeout(r, 200))) {
    d = (await service.call('sweeps.get', { id: s.id } as never)) as typeof d;
    if (!d!.summary.active) break;
  }
  assert.equal(d!.summary.status, 'done', JSON.stringify(d!.summary));
  assert.equal(d!.state.trials.length, 2);
  for (const t of d!.state.trials) {
    const st = await status(t.runId);
    assert.equal(st.state, 'done');
    assert.match((st as { backend?: string }).backend ?? '', /^torch-cpu/);
  }
});
