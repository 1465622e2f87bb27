// A PyTorch run through the real engine process (train.start with backend 'torch'): live metrics
// events and job progress as for an engine run, pause (status paused), stop (stopped, resumable),
// resume; kill -9 of Python leaves the run interrupted with its last checkpoint, resumable; an
// engine restart while Python trains: the new engine adopts the run (a job in the training lane,
// live events, pause, resume, stop) and it ends done; a Python that ended while no engine was up
// is found ended (done, or interrupted after a kill).
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
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

type TrainJob = { id: string; kind: string; state: string; label: string; progress: number; etaSeconds: number | null };
const jobFor = (id: string, list: unknown) => (list as TrainJob[]).find((j) => j.kind === 'train' && j.label.includes(id) && (j.state === 'running' || j.state === 'queued'));
const runDir = (id: string) => join(workspace, 'runs', id);
const epochsOf = (id: string) => readFileSync(join(runDir(id), 'metrics.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l) as { type: string; epoch: number }).filter((r) => r.type === 'epoch').map((r) => r.epoch);
/** The engine client under the service: stopping it leaves no engine up until the next call starts one. */
const engineClient = () => (service as unknown as { engine: { stop(): Promise<void> } }).engine;
const statusFile = (id: string) => JSON.parse(readFileSync(join(runDir(id), 'status.json'), 'utf8')) as { state: string; pid: number };

test('an engine restart while Python trains: the new engine follows it (job, live events, pause, resume) to done', { skip, timeout: 240_000 }, async () => {
  const from = events.length;
  const { runId } = (await service.call('train.start', { config: config('torch restart', 150) })) as { runId: string };
  await waitFor(() => metricsFor(runId, from).some((m) => m.epoch), 90_000, 'an epoch');
  // paused before the restart, so the run cannot end before the new engine is up, however fast it trains
  await service.call('train.pause', { id: runId });
  await waitFor(async () => (await status(runId)).state === 'paused', 30_000, 'status paused');
  const pid = (await status(runId)).pid;
  await service.call('engine.restart', {});
  await service.call('engine.info', {});
  // adopted: a train job holds its slot in the training lane, the run still paused under the same Python
  const job = await waitFor(async () => jobFor(runId, await service.call('jobs.list', {})), 30_000, 'the adopted run\'s train job');
  assert.equal(job.state, 'running');
  const st = await status(runId);
  assert.equal(st.state, 'paused', JSON.stringify(st));
  assert.equal(st.pid, pid, 'the same Python process');
  const lanes = (await service.call('jobs.lanes', {})) as { lane: string; running: number }[];
  assert.equal(lanes.find((l) => l.lane === 'training')?.running, 1, 'the adopted run holds a training slot');
  // Resume reaches Python through the run's control file (its stdin was the old engine's pipe)
  const resumed = events.length;
  assert.deepEqual(await service.call('train.resume', { id: runId }), { ok: true });
  await waitFor(() => metricsFor(runId, resumed).some((m) => m.steps.length > 0), 60_000, 'live step records from the adopted run');
  await waitFor(() => metricsFor(runId, resumed).some((m) => m.epoch), 60_000, 'a live epoch record from the adopted run');
  await waitFor(() => events.slice(resumed).some((e) => e.type === 'job' && e.job.id === job.id && e.job.progress > 0 && e.job.etaSeconds != null), 30_000, 'the adopted job\'s progress with an ETA');
  const end = await runEvent(runId, resumed, ['done', 'failed', 'stopped', 'interrupted'], 180_000);
  assert.equal(end.state, 'done', end.reason);
  await waitFor(() => events.slice(resumed).some((e) => e.type === 'job' && e.job.id === job.id && e.job.state === 'done'), 30_000, 'the adopted job done');
  assert.equal((await status(runId)).state, 'done');
  assert.deepEqual(epochsOf(runId), Array.from({ length: 150 }, (_, i) => i + 1), 'every epoch once, in order');
  assert.equal(existsSync(join(runDir(runId), 'train.lock')), false, 'the lock handed to Python is gone');
  assert.match(readFileSync(join(runDir(runId), 'events.log'), 'utf8'), new RegExp(`following the PyTorch process ${pid}`));
});

test('an engine restart while Python trains: Stop on the adopted run stops it', { skip, timeout: 240_000 }, async () => {
  const from = events.length;
  const { runId } = (await service.call('train.start', { config: config('torch restart stop', 2000) })) as { runId: string };
  await waitFor(() => metricsFor(runId, from).some((m) => m.epoch), 90_000, 'an epoch');
  const before = await status(runId);
  await service.call('engine.restart', {});
  const after = events.length;
  await service.call('engine.info', {});
  assert.equal((await status(runId)).pid, before.pid, 'the same Python process');
  await waitFor(() => metricsFor(runId, after).some((m) => m.epoch), 60_000, 'live epoch records from the adopted run');
  const stopFrom = events.length;
  assert.deepEqual(await service.call('train.stop', { id: runId }), { ok: true });
  const end = await runEvent(runId, stopFrom, ['stopped', 'done', 'failed', 'interrupted']);
  assert.equal(end.state, 'stopped', end.reason);
  assert.equal((await status(runId)).state, 'stopped');
});

test('Python ends while no engine is up: the next engine finds it ended, done or interrupted', { skip, timeout: 240_000 }, async () => {
  const from = events.length;
  await service.call('jobs.lanes', { trainingSlots: 2 }); // the first, paused, holds a slot while the second trains (the next engine has its default again)
  const a = ((await service.call('train.start', { config: config('torch ended done', 60) })) as { runId: string }).runId;
  await waitFor(() => metricsFor(a, from).some((m) => m.epoch), 90_000, 'an epoch of the first');
  await service.call('train.pause', { id: a });
  await waitFor(async () => (await status(a)).state === 'paused', 30_000, 'the first paused');
  const b = ((await service.call('train.start', { config: config('torch ended killed', 2000) })) as { runId: string }).runId;
  await waitFor(() => metricsFor(b, from).some((m) => m.epoch), 90_000, 'an epoch of the second');
  await engineClient().stop();
  // no engine: the second is killed; the first trains to its end (resumed the way an engine would, through its control file)
  process.kill(statusFile(b).pid, 'SIGKILL');
  writeFileSync(join(runDir(a), 'torch', 'control.tmp'), 'resume\n');
  renameSync(join(runDir(a), 'torch', 'control.tmp'), join(runDir(a), 'torch', 'control'));
  await waitFor(() => statusFile(a).state === 'done', 120_000, 'the first done with no engine up');
  assert.ok(existsSync(join(runDir(a), 'train.lock')) && existsSync(join(runDir(b), 'train.lock')), 'both locks still name their Python');
  const again = events.length;
  await service.call('engine.info', {});
  await waitFor(() => !existsSync(join(runDir(a), 'train.lock')) && !existsSync(join(runDir(b), 'train.lock')), 30_000, 'both runs finalized');
  assert.equal((await status(a)).state, 'done');
  assert.deepEqual(epochsOf(a), Array.from({ length: 60 }, (_, i) => i + 1));
  const sb = await status(b);
  assert.equal(sb.state, 'interrupted', JSON.stringify(sb));
  const ev = await runEvent(b, again, ['interrupted', 'failed']);
  assert.equal(ev.state, 'interrupted');
  assert.match(ev.reason ?? '', /ended without recording its end and without a traceback.*checkpoints\/last holds epoch \d+/);
  assert.match(readFileSync(join(runDir(b), 'events.log'), 'utf8'), /ended while no engine followed it/);
  assert.equal(jobFor(b, await service.call('jobs.list', {})), undefined, 'no job follows an ended run');
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
