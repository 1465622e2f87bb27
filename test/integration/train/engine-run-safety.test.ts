// Runs through the real engine process: refusals that answer at once and leave the run
// failed and deletable (an unknown backend, a model or data too large for memory), a backend that
// fails in the job, a stop while the data are prepared, a second writer refused, and an engine
// killed mid-run leaving no run stuck queued: both runs interrupted, stoppable, deletable, resumable.
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import type { RunSummary, WorkbenchEvent } from '../../../main/api/contract';
import { engineService } from '../../helpers/engine-service';
import { waitFor } from '../../helpers/wait';

process.env.LINO_BACKEND = 'cpu'; // the forked engine inherits it
const { service, events, workspace } = engineService();
before(async () => {
  await service.call('engine.info', {});
});

const tiny = (over: Record<string, unknown> = {}) => ({
  name: 'safety',
  model: { width: 6, depth: 1 },
  data: { kind: 'synthetic', grid: [6, 6], train: 4, val: 2 },
  epochs: 2,
  batchSize: 2,
  ...over,
});
const byName = async (name: string) => ((await service.call('runs.list', {})) as RunSummary[]).find((r) => r.name === name)!;
const state = async (id: string) => ((await service.call('runs.get', { id })) as { status: { state: string; reason?: string } }).status;
const runEnd = (runId: string, from: number, ms = 60_000) =>
  waitFor(() => events.slice(from).find((e): e is Extract<WorkbenchEvent, { type: 'run' }> => e.type === 'run' && e.runId === runId && ['done', 'failed', 'stopped'].includes(e.state)), ms, `run ${runId} to end`);
async function pingMs(): Promise<number> {
  const t0 = Date.now();
  await service.call('engine.ping', { t: t0 });
  return Date.now() - t0;
}

test('an unknown backend is refused at train.start, listing the known ones; the run is failed and deletable', async () => {
  await assert.rejects(service.call('train.start', { config: tiny({ name: 'bad backend', backend: 'nonexistent-backend' }) }), /field 'backend': expected one of tensorflow-gpu, webgpu, tensorflow, wasm, cpu or torch, got 'nonexistent-backend'/);
  const r = await byName('bad backend');
  assert.equal(r.state, 'failed');
  assert.match(r.reason!, /nonexistent-backend/);
  assert.deepEqual(await service.call('runs.delete', { id: r.id }), { ok: true });
});

test('a backend that cannot start fails the job and leaves the run failed (resumable, deletable), not queued', async () => {
  const from = events.length;
  // tfjs-node is not installed here: 'tensorflow' is a known name the job cannot load.
  const { runId } = (await service.call('train.start', { config: tiny({ name: 'no tfjs-node', backend: 'tensorflow' }) })) as { runId: string };
  const end = await runEnd(runId, from);
  assert.equal(end.state, 'failed');
  const st = await state(runId);
  assert.equal(st.state, 'failed');
  assert.match(st.reason!, /backend 'tensorflow' could not be used/);
  assert.deepEqual(await service.call('train.stop', { id: runId }), { ok: false }, 'nothing left to stop');
  assert.deepEqual(await service.call('runs.delete', { id: runId }), { ok: true });
});

test('models and data too large for memory are refused at once, with numbers; the engine keeps answering', async () => {
  let t0 = Date.now();
  await assert.rejects(service.call('train.start', { config: tiny({ name: 'wide', model: { width: 4096, depth: 64 } }) }), /does not fit: the model has [\d,]+ parameters \(width 4096, depth 64\).* need [\d.]+ GiB.* Lower model\.width or model\.depth/);
  console.log(`width 4096, depth 64 refused after ${Date.now() - t0} ms`);
  assert.ok(Date.now() - t0 < 3000, `refused after ${Date.now() - t0} ms`);
  t0 = Date.now();
  await assert.rejects(service.call('train.start', { config: tiny({ name: 'huge data', data: { kind: 'synthetic', grid: [1024, 1024], train: 1e9, val: 1 } }) }), /the data need [\d.]+ GiB .* Lower data\.train/);
  console.log(`1e9 samples of 1024x1024 refused after ${Date.now() - t0} ms`);
  assert.ok(Date.now() - t0 < 3000, `refused after ${Date.now() - t0} ms`);
  assert.ok((await pingMs()) < 1000);
  for (const name of ['wide', 'huge data']) {
    const r = await byName(name);
    assert.equal(r.state, 'failed');
    assert.match(r.reason!, /^memory: run '.*' does not fit/);
    assert.deepEqual(await service.call('runs.delete', { id: r.id }), { ok: true });
  }
});

test('train.stop while synthetic data are being generated stops the run at once', async () => {
  const from = events.length;
  // ~4000 samples of 128x128: tens of seconds of generation unless the stop ends it.
  const { runId } = (await service.call('train.start', { config: tiny({ name: 'stop in prep', data: { kind: 'synthetic', grid: [128, 128], train: 4000, val: 2 } }) })) as { runId: string };
  await waitFor(() => events.slice(from).some((e) => e.type === 'log' && e.message === `run ${runId}: preparing the data (synthetic)`), 60_000, 'the preparation to start');
  await new Promise((r) => setTimeout(r, 300));
  assert.ok((await pingMs()) < 1000, 'the engine answers while the data are prepared');
  const t0 = Date.now();
  assert.deepEqual(await service.call('train.stop', { id: runId }), { ok: true });
  const end = await runEnd(runId, from, 30_000);
  assert.equal(end.state, 'stopped');
  console.log(`stopped ${Date.now() - t0} ms after train.stop, during the data's preparation`);
  assert.ok(Date.now() - t0 < 3000, `stopped ${Date.now() - t0} ms after train.stop`);
  assert.deepEqual(await service.call('runs.delete', { id: runId }), { ok: true });
});

test('an engine killed mid-run leaves no run queued for good; a second writer is refused; a stale lock is taken over', async () => {
  const from = events.length;
  const a = (await service.call('train.start', { config: tiny({ name: 'killed', epochs: 400, data: { kind: 'synthetic', grid: [8, 8], train: 8, val: 2 } }) })) as { runId: string };
  const b = (await service.call('train.start', { config: tiny({ name: 'queued behind' }) })) as { runId: string };
  await waitFor(() => events.slice(from).some((e) => e.type === 'metrics' && e.runId === a.runId && e.epoch), 60_000, 'a first epoch');
  const runDir = (id: string) => join(workspace, 'runs', id);
  assert.ok(existsSync(join(runDir(a.runId), 'train.lock')), 'the engine holds the run it trains');
  process.kill(service.engine.pid!, 'SIGKILL');
  await waitFor(() => events.slice(from).some((e) => e.type === 'engine' && e.state === 'crashed'), 30_000, 'crash event');
  assert.equal((await state(a.runId)).state, 'interrupted');
  const sb = await state(b.runId);
  assert.equal(sb.state, 'interrupted', 'queued by an engine that died');
  assert.match(sb.reason!, /queued by engine process \d+, which is gone/);
  // Stoppable, then deletable.
  assert.deepEqual(await service.call('train.stop', { id: b.runId }), { ok: true });
  assert.equal((await state(b.runId)).state, 'stopped');
  assert.deepEqual(await service.call('runs.delete', { id: b.runId }), { ok: true });

  // A writer outside the engine (a live process on this host) holds the run: refused, untouched.
  const lockPath = join(runDir(a.runId), 'train.lock');
  const dead = readFileSync(lockPath, 'utf8');
  writeFileSync(lockPath, JSON.stringify({ pid: process.ppid, host: hostname(), startedAt: new Date().toISOString(), owner: 'lino train', token: 'cli' }));
  await assert.rejects(service.call('train.start', { resume: a.runId }), new RegExp(`run '${a.runId}' is being trained by another writer: held by lino train, process ${process.ppid}`));
  await assert.rejects(service.call('runs.delete', { id: a.runId }), /being trained by another writer/);
  assert.equal(await service.call('train.stop', { id: a.runId }).then((r) => (r as { ok: boolean }).ok), false, 'not the engine\'s to stop');
  assert.equal((await state(a.runId)).state, 'interrupted');

  // The dead engine's own lock is stale: the resume takes it over and trains to the end, in order.
  writeFileSync(lockPath, dead);
  const from2 = events.length;
  await service.call('train.stop', { id: a.runId }); // interrupted -> stopped, still resumable
  await service.call('train.start', { resume: a.runId });
  await waitFor(() => events.slice(from2).some((e) => e.type === 'metrics' && e.runId === a.runId && e.epoch), 60_000, 'an epoch after the resume');
  assert.match(readFileSync(join(runDir(a.runId), 'events.log'), 'utf8'), /took over the run lock of run '.*': its process \d+ \(the engine, since .*\) is gone/);
  assert.deepEqual(await service.call('train.stop', { id: a.runId }), { ok: true });
  assert.equal((await runEnd(a.runId, from2)).state, 'stopped');
  const epochs = ((await service.call('runs.metrics', { id: a.runId, type: 'epoch' })) as { records: { epoch: number }[] }).records.map((r) => r.epoch);
  assert.deepEqual(epochs, epochs.map((_, i) => i + 1), 'epochs once each, in order');
  await waitFor(() => !existsSync(lockPath), 5000, 'the lock to be released');
  rmSync(runDir(a.runId), { recursive: true, force: true });
});
