import { test } from 'node:test';
import assert from 'node:assert/strict';
import { JobQueue } from '../../../main/engine/jobs';
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

test('jobs run one at a time, in order, with progress and ETA', async () => {
  const events: JobSummary[] = [];
  let clock = 0;
  const q = new JobQueue<string>((j) => events.push(j), () => clock);
  const order: string[] = [];
  q.register('work', {
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
  const q = new JobQueue<string>((j) => events.push(j));
  q.register('loop', {
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
  const q = new JobQueue<string>((j) => events.push(j));
  q.register('boom', { label: () => 'boom', run: async () => { throw new Error('file x.mat: variable coeff missing'); } });
  q.register('ok', { label: () => 'ok', run: async () => 1 });
  const a = q.start('boom', {});
  const b = q.start('ok', {});
  assert.equal((await settle(events, a.id, ['failed'])).error, 'file x.mat: variable coeff missing');
  assert.equal((await settle(events, b.id, ['done'])).state, 'done');
  assert.throws(() => q.start('missing', {}), /unknown job kind 'missing'/);
});
