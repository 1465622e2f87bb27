// The Reproduce view follows a reproduction still under way after a reload or a view switch: the
// newest queued or running 'reproduce' job of the chosen preset and size, found by its label.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { JobSummary } from '../../../main/api/contract';
import { pendingReproduction } from '../../../renderer/src/queries/reproduce';
import { reproduceLabel } from '../../../main/engine/reproduce-job';

const job = (id: string, seq: number, state: JobSummary['state'], label: string, kind: JobSummary['kind'] = 'reproduce'): JobSummary => ({
  id, kind, lane: 'training', seq, state, label, progress: 0, etaSeconds: null, startedAt: null, endedAt: null,
});

test('the newest queued or running reproduction of the preset and size, by the engine\'s label', () => {
  const label = reproduceLabel({ workspace: '/w', name: 'burgers', size: 'tiny' });
  const jobs = Object.fromEntries([
    job('a', 1, 'done', label),
    job('b', 2, 'running', label),
    job('c', 3, 'queued', label),
    job('d', 4, 'running', reproduceLabel({ workspace: '/w', name: 'darcy', size: 'tiny' })),
    job('e', 5, 'running', reproduceLabel({ workspace: '/w', name: 'burgers', size: 'quick' })),
    job('f', 6, 'running', label, 'train'),
  ].map((j) => [j.id, j]));
  assert.equal(pendingReproduction(jobs, 'burgers', 'tiny'), 'c');
  assert.equal(pendingReproduction(jobs, 'darcy', 'tiny'), 'd');
  assert.equal(pendingReproduction(jobs, 'ns', 'tiny'), null, 'none under way');
  assert.equal(pendingReproduction({ a: jobs.a! }, 'burgers', 'tiny'), null, 'an ended one is not followed again');
});
