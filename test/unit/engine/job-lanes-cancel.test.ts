// A queued job of every kind can be cancelled while a job of its own lane runs: jobs.cancel answers
// true, jobs.list shows it cancelled, and it never runs (so it writes nothing). The cancel comes as a
// message through the event loop, as the host's jobs.cancel reaches the engine; the running job may
// never yield to the event loop (a dataset export writes its files synchronously), which is how a
// queued export came to run before its cancel was read (jobs.cancel answered ok: false).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MessageChannel } from 'node:worker_threads';
import { JobQueue } from '../../../main/engine/jobs';
import { inJobWorker } from '../../../main/engine/job-worker-run';
import { LANE_OF_KIND, laneOf } from '../../../main/engine/job-lanes';
import { JOB_KINDS, type JobKind } from '../../../main/api/jobs';
import type { JobSummary } from '../../../main/api/contract';

/** Busy for `ms` without giving the event loop a turn (only microtasks in between). */
async function busyWithoutYielding(ms: number): Promise<void> {
  for (const end = Date.now() + ms; Date.now() < end;) await Promise.resolve();
}

/**
 * One lane: its slots filled with running jobs of `kind`, one more queued, cancelled by a message
 * posted once it is queued. Answers what cancel said, the queued job's state in list(), and the files.
 */
async function cancelQueued(kind: JobKind, blocker: 'never yields' | 'yields', slots: number) {
  const dir = mkdtempSync(join(tmpdir(), 'lino-lanes-'));
  try {
    const events: JobSummary[] = [];
    const q = new JobQueue<Record<string, { n: number | string }>>((j) => events.push(j));
    q.setSlots(laneOf(kind)!, slots);
    q.register(kind, {
      label: (p) => `${kind} ${String(p.n)}`,
      run: async (p) => {
        // what a job makes: a file in the workspace, written as it starts
        writeFileSync(join(dir, `${kind}-${String(p.n)}`), 'out');
        if (blocker === 'never yields') await busyWithoutYielding(40);
        else await new Promise((r) => setTimeout(r, 40));
        return p.n;
      },
    });
    const running = Array.from({ length: slots }, (_, n) => q.start(kind, { n }));
    const queued = q.start(kind, { n: 'queued' });
    assert.equal(queued.lane, LANE_OF_KIND[kind], `${kind}: its lane`);
    assert.equal(queued.state, 'queued');
    // the host's cancel: a message, read by the event loop like the engine's channel
    const { port1, port2 } = new MessageChannel();
    const answered = new Promise<boolean>((resolve) => port2.once('message', (id: string) => resolve(q.cancel(id))));
    port1.postMessage(queued.id);
    const ok = await answered;
    port1.close();
    for (const j of running) {
      for (const t0 = Date.now(); q.list().find((x) => x.id === j.id)!.state !== 'done'; await new Promise((r) => setTimeout(r, 5))) {
        if (Date.now() - t0 > 10_000) throw new Error(`${kind}: job ${j.id} did not finish`);
      }
    }
    // a turn more for anything that would start after the lane emptied
    await new Promise((r) => setTimeout(r, 20));
    return {
      ok,
      state: q.list().find((j) => j.id === queued.id)!.state,
      ran: events.some((e) => e.id === queued.id && e.state === 'running'),
      files: readdirSync(dir).sort(),
      expected: running.map((_, n) => `${kind}-${n}`).sort(),
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

test('every job kind has exactly one lane in the table, and a kind without one is refused at register', () => {
  assert.deepEqual(Object.keys(LANE_OF_KIND).sort(), Object.keys(JOB_KINDS).sort());
  const q = new JobQueue<Record<string, object>>(() => {});
  assert.throws(() => q.register('no-such-kind', { label: () => '', run: async () => null }), /job kind 'no-such-kind' has no lane: declare it with its lane in JOB_KINDS/);
  q.register('own-lane', { label: () => '', run: async () => null, lane: 'tests' });
  assert.equal(q.start('own-lane', {}).lane, 'tests');
});

for (const blocker of ['never yields', 'yields'] as const) {
  test(`a queued job of every kind is cancelled behind a running job of its lane that ${blocker}`, { timeout: 60_000 }, async () => {
    for (const kind of Object.keys(JOB_KINDS) as JobKind[]) {
      // the training lane runs several at once: all its slots busy, one more queued
      const slots = LANE_OF_KIND[kind] === 'training' ? 2 : 1;
      const r = await cancelQueued(kind, blocker, slots);
      assert.equal(r.ok, true, `${kind}: jobs.cancel of the queued job answers true`);
      assert.equal(r.state, 'cancelled', `${kind}: jobs.list shows it cancelled`);
      assert.equal(r.ran, false, `${kind}: it never ran`);
      assert.deepEqual(r.files, r.expected, `${kind}: only the running jobs' files, nothing of the cancelled one`);
    }
  });
}

test('a worker job (evaluation, correlation) cancelled while its worker still loads ends at once, its job never run', { timeout: 60_000 }, async () => {
  const ac = new AbortController();
  let inThread = false;
  const { run } = inJobWorker('evaluate', {
    label: () => 'evaluate',
    run: async () => {
      inThread = true;
    },
  });
  const progress: number[] = [];
  const done = run({ workspace: join(tmpdir(), 'lino-no-such-workspace'), runId: 'none', checkpoint: 'best', split: 'val', resolutions: [], exportPredictions: false, exportFormat: 'npy', fields: false, indices: [], diagnostics: false }, { signal: ac.signal, progress: (f) => progress.push(f) });
  ac.abort();
  // its job would have failed on the missing run had it started: it was ended before that
  await assert.rejects(done, /cancelled before the job's worker had started/);
  assert.equal(inThread, false, 'not run in the engine thread instead');
  assert.deepEqual(progress, []);
});
