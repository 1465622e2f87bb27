// A data-parallel run (workers: 2) through the real engine process and the service both hosts
// use: it trains to the end with the loss curve of the same run on one thread (cpu backend), the
// engine reports its core count, a bad worker count is refused naming the field, and pause,
// resume and stop act between steps (a stopped run resumes).
import { test, after, before } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { EngineInfo, StepMetrics, WorkbenchEvent } from '../../../main/api/contract';
import { engineService } from '../../helpers/engine-service';
import { waitFor } from '../../helpers/wait';

const prevBackend = process.env.LINO_BACKEND;
process.env.LINO_BACKEND = 'cpu';
const { service, events, workspace } = engineService();
before(async () => {
  await service.call('engine.info', {});
});
after(() => {
  if (prevBackend === undefined) delete process.env.LINO_BACKEND;
  else process.env.LINO_BACKEND = prevBackend;
});

const runEnd = (runId: string) =>
  waitFor(() => events.find((e) => e.type === 'run' && e.runId === runId && ['done', 'failed', 'stopped'].includes(e.state)) as Extract<WorkbenchEvent, { type: 'run' }> | undefined, 180_000, `run ${runId} to end`);

const tiny = (over: Record<string, unknown> = {}) => ({
  name: 'dp tiny',
  model: { width: 8, depth: 1 },
  data: { kind: 'synthetic', grid: [8, 8], train: 8, val: 2 },
  epochs: 2,
  batchSize: 4,
  optimizer: { lr: 5e-3 },
  ...over,
});

const losses = async (id: string) => ((await service.call('runs.metrics', { id, type: 'step' })) as { records: StepMetrics[] }).records.map((r) => r.loss);

test('engine: workers=2 trains with the loss curve of workers=1; the engine reports its cores', { timeout: 240_000 }, async () => {
  const info = (await service.call('engine.info', {})) as EngineInfo;
  assert.ok(Number.isInteger(info.cores) && info.cores! >= 1, `cores ${info.cores}`);
  const one = (await service.call('train.start', { config: tiny({ name: 'one' }) })) as { runId: string };
  assert.equal((await runEnd(one.runId)).state, 'done');
  const two = (await service.call('train.start', { config: tiny({ name: 'two', workers: 2 }) })) as { runId: string };
  const end = await runEnd(two.runId);
  assert.equal(end.state, 'done', end.reason);
  const [a, b] = [await losses(one.runId), await losses(two.runId)];
  assert.equal(b.length, 4);
  a.forEach((l, i) => assert.ok(Math.abs(l - b[i]!) <= 1e-5 * l, `step ${i + 1}: ${b[i]} vs ${l}`));
  assert.match(readFileSync(join(workspace, 'runs', two.runId, 'events.log'), 'utf8'), /data-parallel: 2 threads per step \(this one and 1 worker\)/);
});

test('engine: workers out of range is refused naming the field; pause/resume/stop a data-parallel run between steps, resumable', { timeout: 240_000 }, async () => {
  await assert.rejects(service.call('train.start', { config: tiny({ workers: 99 }) }), /workers/);
  const r = (await service.call('train.start', { config: tiny({ name: 'stop', workers: 2, epochs: 50, data: { kind: 'synthetic', grid: [8, 8], train: 16, val: 2 } }) })) as { runId: string };
  await waitFor(() => events.some((e) => e.type === 'metrics' && e.runId === r.runId && e.steps.length > 0) || undefined, 120_000, 'first steps');
  // pause holds it between steps; resume continues
  const paused = events.length;
  await service.call('train.pause', { id: r.runId });
  await waitFor(() => events.slice(paused).some((e) => e.type === 'run' && e.runId === r.runId && e.state === 'paused') || undefined, 60_000, 'paused');
  await service.call('train.resume', { id: r.runId });
  await waitFor(() => events.slice(paused).some((e) => e.type === 'run' && e.runId === r.runId && e.state === 'running') || undefined, 60_000, 'running again');
  await service.call('train.stop', { id: r.runId });
  const end = await runEnd(r.runId);
  assert.equal(end.state, 'stopped', end.reason);
  // resumable: it continues from its last checkpoint (threads started afresh)
  const resumed = events.length;
  await service.call('train.resume', { id: r.runId });
  await waitFor(() => events.slice(resumed).some((e) => e.type === 'run' && e.runId === r.runId && e.state === 'running') || undefined, 60_000, 'resumed');
  await service.call('train.stop', { id: r.runId });
  await waitFor(() => events.slice(resumed).find((e) => e.type === 'run' && e.runId === r.runId && e.state === 'stopped'), 120_000, 'stopped again');
});
