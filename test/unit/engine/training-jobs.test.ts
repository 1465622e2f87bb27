// The engine's training jobs with the loop on the engine thread (LINO_TRAIN_IN_THREAD=1 path):
// queue, pause at a step boundary, resume, finish; events carry the run's states and metrics.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { JobQueue } from '../../../main/engine/jobs';
import { TrainingJobs } from '../../../main/engine/train-jobs';
import { RunStore } from '../../../main/runs/run-store';
import type { WorkbenchEvent } from '../../../main/api/contract';
import { tempDir } from '../../helpers/env';

const prev = process.env.LINO_BACKEND;
process.env.LINO_BACKEND = 'cpu';
const ws = tempDir('lino-train-jobs-');
after(() => {
  ws.cleanup();
  if (prev === undefined) delete process.env.LINO_BACKEND;
  else process.env.LINO_BACKEND = prev;
});

test('in-thread training job: pause holds it between steps, resume finishes it', async () => {
  const events: WorkbenchEvent[] = [];
  const jobs = new JobQueue((job) => events.push({ type: 'job', job }));
  const training = new TrainingJobs(jobs, (e) => events.push(e));
  jobs.register('train', training.trainJob);
  training.inThread = true;
  const store = new RunStore(join(ws.path, 'runs'));
  store.create({ model: { width: 6, depth: 1 }, data: { kind: 'synthetic', grid: [6, 6], train: 8, val: 2 }, epochs: 3, batchSize: 2 }, 'r1');
  training.start(ws.path, 'r1');
  const steps = () => events.filter((e) => e.type === 'metrics').flatMap((e) => (e as { steps: unknown[] }).steps).length;
  while (steps() === 0) await new Promise((r) => setTimeout(r, 5));
  assert.ok(training.isActive('r1'));
  assert.equal(training.pause('r1'), true);
  let state = '';
  for (let i = 0; i < 400 && state !== 'paused'; i++) {
    await new Promise((r) => setTimeout(r, 10));
    state = store.open('r1').readStatus(training.isActive).state;
  }
  assert.equal(state, 'paused');
  await new Promise((r) => setTimeout(r, 120));
  const n = steps();
  await new Promise((r) => setTimeout(r, 150));
  assert.equal(steps(), n, 'no steps while paused');
  training.resume(ws.path, 'r1');
  while (!events.some((e) => e.type === 'run' && e.runId === 'r1' && e.state === 'done')) await new Promise((r) => setTimeout(r, 10));
  assert.equal(steps(), 12);
  assert.equal(store.open('r1').readStatus().state, 'done');
  assert.deepEqual(
    events.filter((e) => e.type === 'run').map((e) => (e as { state: string }).state),
    ['queued', 'running', 'paused', 'running', 'done'],
  );
});
