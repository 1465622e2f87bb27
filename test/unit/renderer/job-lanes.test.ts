import { test } from 'node:test';
import assert from 'node:assert/strict';
import { jobDisplayLabel, jobStateText, laneQueues } from '../../../renderer/src/logic/job-lanes';
import type { JobSummary } from '../../../main/api/contract';

const job = (id: string, lane: string, seq: number, state: JobSummary['state']): JobSummary => ({
  id, kind: 'x', lane, seq, state, label: id, progress: 0, etaSeconds: null, startedAt: null, endedAt: null,
});

test('the Queue card lists each lane in execution order: running first, then queued by when they were queued', () => {
  // keys that look like integers come first in a JS object: the order must come from seq, not the record
  const jobs = Object.fromEntries(
    [job('30000003', 'training', 3, 'queued'), job('10000001', 'training', 1, 'running'), job('b', 'training', 2, 'queued'), job('ev', 'evaluation', 4, 'running'), job('old', 'data', 0, 'done'), job('odd', 'custom', 5, 'queued')].map((j) => [j.id, j]),
  );
  const lanes = laneQueues(jobs);
  assert.deepEqual(lanes.map((l) => l.lane), ['training', 'evaluation', 'custom']);
  assert.deepEqual(lanes[0]!.jobs.map((j) => j.id), ['10000001', 'b', '30000003']);
  assert.equal(lanes[1]!.label, 'Evaluation');
  assert.deepEqual(laneQueues({}), []);
});

test('a training job is named by its run in the Queue card, not by the run id (the closing walk read "Train run ablation-20261127-…-c1-s42")', () => {
  const train = { ...job('j1', 'training', 1, 'running'), kind: 'train', label: 'Train run ablation-20261127-194911-c1-s42' };
  assert.equal(jobDisplayLabel(train, [{ id: 'ablation-20261127-194911-c1-s42', name: 'walk LiNO/no-reflection (seed 42)' }]), 'Train walk LiNO/no-reflection (seed 42)');
  assert.equal(jobDisplayLabel(train, []), 'Train run ablation-20261127-194911-c1-s42', 'a run not listed yet keeps the engine\'s label');
  assert.equal(jobDisplayLabel({ ...job('g', 'data', 2, 'queued'), label: 'Generate darcy (tiny, 20 samples)' }, []), 'Generate darcy (tiny, 20 samples)');
});

test('a paused run\'s job reads "paused at 77%", not "running 77%"; others by their state', () => {
  const j = { ...job('t1', 'training', 1, 'running'), label: 'Train run r1', progress: 0.77 };
  assert.equal(jobStateText(j, [{ id: 'r1', state: 'paused' }]), 'paused at 77%');
  assert.equal(jobStateText(j, [{ id: 'r1', state: 'running' }]), 'running 77%');
  assert.equal(jobStateText(j, []), 'running 77%', 'a run not listed yet');
  assert.equal(jobStateText({ ...j, state: 'queued' }, [{ id: 'r1', state: 'paused' }]), 'queued');
});
