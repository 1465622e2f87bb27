import { test } from 'node:test';
import assert from 'node:assert/strict';
import { JobQueue } from '../../../main/engine/jobs';
import { defaultTrainingSlots } from '../../../main/engine/job-lanes';
import type { JobSummary } from '../../../main/api/contract';

function settle(events: JobSummary[], id: string, states: string[]): Promise<JobSummary> {
  return new Promise((resolve) => {
    const t = setInterval(() => {
      const last = [...events].reverse().find((e) => e.id === id);
      if (last && states.includes(last.state)) {
        clearInterval(t);
        resolve(last);
      }
    }, 2);
  });
}

/** Kinds of the tests' own: each takes an optional number. */
type TestKinds = Record<string, { n?: number }>;

test('jobs run one at a time, in order, with progress and ETA', async () => {
  const events: JobSummary[] = [];
  let clock = 0;
  const q = new JobQueue<TestKinds>((j) => events.push(j), () => clock);
  const order: string[] = [];
  q.register('work', {
    lane: 'work',
    label: (p) => `work ${p.n}`,
    run: async (p, ctx) => {
      order.push(`start ${p.n}`);
      clock += 1000;
      ctx.progress(0.25, 'a quarter');
      await new Promise((r) => setTimeout(r, 5));
      order.push(`end ${p.n}`);
      return { n: p.n };
    },
  });
  const a = q.start('work', { n: 1 });
  const b = q.start('work', { n: 2 });
  const doneB = await settle(events, b.id, ['done']);
  assert.deepEqual(order, ['start 1', 'end 1', 'start 2', 'end 2']);
  assert.deepEqual(doneB.result, { n: 2 });
  const progress = events.find((e) => e.id === a.id && e.progress === 0.25)!;
  // 1 s for a quarter of the work: 3 s left.
  assert.equal(progress.etaSeconds, 3);
  assert.equal(progress.message, 'a quarter');
});

test('cancel aborts a running job and drops a queued one', async () => {
  const events: JobSummary[] = [];
  const q = new JobQueue<TestKinds>((j) => events.push(j));
  q.register('loop', {
    lane: 'loop',
    label: () => 'loop',
    run: async (_p, ctx) => {
      while (!ctx.signal.aborted) await new Promise((r) => setTimeout(r, 2));
      throw new Error('stopped');
    },
  });
  const a = q.start('loop', {});
  const b = q.start('loop', {});
  await settle(events, a.id, ['running']);
  assert.equal(q.cancel(b.id), true);
  assert.equal(q.cancel(a.id), true);
  assert.equal((await settle(events, a.id, ['cancelled', 'failed'])).state, 'cancelled');
  assert.equal(q.list().find((j) => j.id === b.id)!.state, 'cancelled');
  assert.equal(q.cancel('nope'), false);
});

test('a failing job reports its error and the queue goes on', async () => {
  const events: JobSummary[] = [];
  const q = new JobQueue<TestKinds>((j) => events.push(j));
  q.register('boom', { lane: 'boom', label: () => 'boom', run: async () => { throw new Error('file x.mat: variable coeff missing'); } });
  q.register('ok', { lane: 'ok', label: () => 'ok', run: async () => 1 });
  const a = q.start('boom', {});
  const b = q.start('ok', {});
  assert.equal((await settle(events, a.id, ['failed'])).error, 'file x.mat: variable coeff missing');
  assert.equal((await settle(events, b.id, ['done'])).state, 'done');
  assert.throws(() => q.start('missing', {}), /unknown job kind 'missing'/);
});

test('lanes: an evaluation and a generation finish while a training job runs; training slots run that many at once', async () => {
  const events: JobSummary[] = [];
  const q = new JobQueue<Record<string, object>>((j) => events.push(j));
  let release = () => {};
  const held = new Promise<void>((r) => (release = r));
  let trainingNow = 0;
  let trainingMax = 0;
  q.register('train', {
    label: () => 'train',
    run: async () => {
      trainingNow++;
      trainingMax = Math.max(trainingMax, trainingNow);
      await held;
      trainingNow--;
    },
  });
  q.register('evaluate', { label: () => 'evaluate', run: async () => 'evaluated' });
  q.register('generate', { label: () => 'generate', run: async () => 'generated' });
  const t1 = q.start('train', {});
  const t2 = q.start('train', {});
  const ev = q.start('evaluate', {});
  const gen = q.start('generate', {});
  assert.equal(t1.lane, 'training');
  assert.equal(ev.lane, 'evaluation');
  assert.equal(gen.lane, 'data');
  assert.equal((await settle(events, ev.id, ['done'])).result, 'evaluated');
  assert.equal((await settle(events, gen.id, ['done'])).result, 'generated');
  // one training slot by default: the second run waits for the first
  assert.equal(q.list().find((j) => j.id === t2.id)!.state, 'queued');
  assert.deepEqual(q.lanes(['training', 'evaluation']).slice(0, 2), [
    { lane: 'training', slots: 1, running: 1, queued: 1 },
    { lane: 'evaluation', slots: 1, running: 0, queued: 0 },
  ]);
  q.setSlots('training', 2);
  await settle(events, t2.id, ['running']);
  assert.equal(trainingMax, 2);
  release();
  await settle(events, t2.id, ['done']);
  assert.throws(() => q.setSlots('training', 0), /lane 'training': slots: expected an integer of at least 1, got 0/);
});

test('training slots: LINO_TRAINING_SLOTS when set and valid, else by cores', () => {
  assert.equal(defaultTrainingSlots({}, 2), 1);
  assert.equal(defaultTrainingSlots({}, 16), 4);
  assert.equal(defaultTrainingSlots({ LINO_TRAINING_SLOTS: '3' }, 2), 3);
  assert.throws(() => defaultTrainingSlots({ LINO_TRAINING_SLOTS: 'many' }, 2), /LINO_TRAINING_SLOTS: expected an integer from 1 to 8, got 'many'/);
});
