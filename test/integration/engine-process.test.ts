// The real engine in a forked process, driven through the same service both hosts use.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { WorkbenchService } from '../../main/services/workbench-service';
import { forkLauncher } from '../../main/services/engine-launcher';
import type { JobSummary, WorkbenchEvent } from '../../main/api/contract';
import { waitFor } from '../helpers/wait';
import { engineService } from '../helpers/engine-service';

const { service, events, workspace } = engineService();


const lastJob = (id: string) => [...events].reverse().find((e): e is Extract<WorkbenchEvent, { type: 'job' }> => e.type === 'job' && e.job.id === id)?.job;

test('the engine runs in its own process and reports its backend', async () => {
  const info = (await service.call('engine.info', {})) as { pid: number; backend: { active: string } };
  assert.notEqual(info.pid, process.pid);
  assert.ok(['wasm', 'cpu', 'tensorflow', 'tensorflow-gpu'].includes(info.backend.active));
  const pong = (await service.call('engine.ping', { t: 123 })) as { t: number };
  assert.equal(pong.t, 123);
});

test('a self-test job computes, reports progress and finishes', async () => {
  const job = (await service.call('jobs.start', { kind: 'selftest', params: { steps: 40, size: 32 } })) as JobSummary;
  const done = await waitFor(() => {
    const j = lastJob(job.id);
    return j && (j.state === 'done' || j.state === 'failed') ? j : undefined;
  });
  assert.equal(done.state, 'done', done.error);
  const r = done.result as { rayleighQuotient: number; steps: number };
  assert.equal(r.steps, 40);
  assert.ok(Number.isFinite(r.rayleighQuotient) && r.rayleighQuotient > 0);
  const progress = events.filter((e) => e.type === 'job' && e.job.id === job.id && e.job.state === 'running').length;
  assert.ok(progress >= 10, `expected progress events, saw ${progress}`);
});

test('cancel stops a running job', async () => {
  const job = (await service.call('jobs.start', { kind: 'selftest', params: { steps: 10000, size: 64 } })) as JobSummary;
  await waitFor(() => (lastJob(job.id)?.progress ?? 0) > 0);
  await service.call('jobs.cancel', { id: job.id });
  const end = await waitFor(() => {
    const j = lastJob(job.id);
    return j && ['cancelled', 'done', 'failed'].includes(j.state) ? j : undefined;
  });
  assert.equal(end.state, 'cancelled');
});

test('an engine crash is reported, fails the calls in flight, and the next call restarts it', async () => {
  const pid = service.engine.pid!;
  const inFlight = service.call('jobs.start', { kind: 'selftest', params: { steps: 100000, size: 256 } }).then(
    () => service.call('engine.ping', { t: 1 }),
  );
  // Give the job a moment to start, then kill the engine outright.
  await new Promise((r) => setTimeout(r, 300));
  process.kill(pid, 'SIGKILL');
  await waitFor(() => events.find((e) => e.type === 'engine' && e.state === 'crashed'));
  await inFlight.then(
    () => {},
    (e: Error) => assert.match(e.message, /exited/),
  );
  // The job that died with the engine is closed for the views, not left running.
  const lastSelftest = [...events].reverse().find((e) => e.type === 'job' && e.job.kind === 'selftest');
  assert.ok(lastSelftest && lastSelftest.type === 'job' && ['failed', 'done'].includes(lastSelftest.job.state));
  const info = (await service.call('engine.info', {})) as { pid: number };
  assert.notEqual(info.pid, pid);
});

test('a job that ignores cancel is killed with the engine after the grace period', async () => {
  const svc = new WorkbenchService({ host: 'browser', launcher: forkLauncher, workspace, cancelGraceMs: 500 });
  const seen: WorkbenchEvent[] = [];
  svc.onEvent((e) => seen.push(e));
  try {
    const info = (await svc.call('engine.info', {})) as { pid: number };
    const job = (await svc.call('jobs.start', { kind: 'selftest', params: { steps: 3, size: 8, syncMs: 1500 } })) as JobSummary;
    await waitFor(() => seen.find((e) => e.type === 'job' && e.job.id === job.id && e.job.state === 'running'));
    await svc.call('jobs.cancel', { id: job.id });
    const end = await waitFor(() => [...seen].reverse().find((e): e is Extract<WorkbenchEvent, { type: 'job' }> => e.type === 'job' && e.job.id === job.id && e.job.state !== 'running' && e.job.state !== 'queued'));
    assert.equal(end.job.state, 'cancelled');
    await waitFor(() => seen.find((e) => e.type === 'engine' && e.state === 'restarting'));
    const after = (await svc.call('engine.info', {})) as { pid: number };
    assert.notEqual(after.pid, info.pid);
  } finally {
    await svc.dispose();
  }
});

test('invalid params are refused before they reach the engine', async () => {
  await assert.rejects(service.call('jobs.start', { kind: 'rm -rf', params: {} }), /invalid parameter 'kind'/);
  await assert.rejects(service.call('no.such.method', {}), /unknown method/);
});

test('files.list stays inside its root', () => {
  const listing = service.listFiles('workspace', '');
  assert.deepEqual(listing.entries.map((e) => e.name), ['datasets', 'exports', 'runs', 'workspace.json']);
  assert.ok(listing.entries.every((e) => e.ref?.startsWith('f_')));
  assert.throws(() => service.listFiles('workspace', '../..'), /outside the workspace folder/);
  assert.throws(() => service.listFiles('workspace', '/etc'), /outside the workspace folder/);
});
