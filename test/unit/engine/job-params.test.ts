// Job bodies take their kind's parameters (main/engine/job-params.ts, from JOB_KINDS and the route
// table): the engine's queue starts a kind only with that kind's parameters. The @ts-expect-error
// lines are the test that matters: `npm run typecheck` fails if any of them compiles.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { JobSummary } from '../../../main/api/contract';
import { JobQueue } from '../../../main/engine/jobs';
import { clusterExportLabel } from '../../../main/engine/cluster-export-job';
import { evaluateLabel } from '../../../main/engine/evaluate-job';
import { exportLabel } from '../../../main/engine/dataset-export-jobs';
import { generateLabel } from '../../../main/engine/dataset-jobs';

/** Never called: each line must not compile (a wrong type, a missing field, a field of another kind). */
export function wrongParamsDoNotCompile(q: JobQueue): void {
  // @ts-expect-error runId is a string
  q.start('cluster-export', { workspace: 'w', runId: 7, nprocPerNode: 1, nodes: 1 });
  // @ts-expect-error nodes is missing (the call fills in its default)
  q.start('cluster-export', { workspace: 'w', runId: 'r', nprocPerNode: 1 });
  // @ts-expect-error 'lean' is not an export format
  q.start('export', { workspace: 'w', id: 'd', format: 'lean', layout: 'raw' });
  // @ts-expect-error an evaluation names its run as runId (runs.evaluate's id)
  q.start('evaluate', { workspace: 'w', id: 'r', checkpoint: 'best', split: 'val', resolutions: [], exportPredictions: false, exportFormat: 'npy', fields: false, indices: [] });
  // @ts-expect-error generate's preset is one of tiny, quick, paper
  q.start('generate', { workspace: 'w', benchmark: 'darcy', preset: 'huge' });
  // @ts-expect-error a body reads its kind's parameters: a generation has no runId
  q.register('generate', { label: (p) => p.runId, run: async () => null });
  // @ts-expect-error not a job kind
  q.start('shell', {});
}

test("each kind starts with its own parameters and labels them (the engine's queue)", async () => {
  const events: JobSummary[] = [];
  const q = new JobQueue((j) => events.push(j));
  q.register('cluster-export', { label: clusterExportLabel, run: async (p) => p.nodes * p.nprocPerNode });
  q.register('evaluate', { label: evaluateLabel, run: async (p) => p.resolutions.length });
  q.register('export', { label: exportLabel, run: async (p) => p.format });
  q.register('generate', { label: generateLabel, run: async (p) => p.samples ?? 0 });
  const started = [
    q.start('cluster-export', { workspace: 'w', runId: 'r1', nprocPerNode: 2, nodes: 3 }),
    q.start('evaluate', { workspace: 'w', runId: 'r2', checkpoint: 'last', split: 'test', resolutions: [32, 64], exportPredictions: false, exportFormat: 'npy', fields: false, indices: [], diagnostics: false }),
    q.start('export', { workspace: 'w', id: 'd1', format: 'npy', layout: 'prepared' }),
    q.start('generate', { workspace: 'w', benchmark: 'darcy', preset: 'tiny', samples: 12 }),
  ];
  assert.deepEqual(started.map((j) => j.label), ['Export run r1 for a cluster', 'Evaluate run r2 (last)', 'Export dataset d1 (prepared, npy)', 'Generate darcy (tiny, 12 samples)']);
  const results = await Promise.all(started.map((j) => new Promise((resolve) => {
    const look = () => {
      const e = events.find((x) => x.id === j.id && x.state === 'done');
      if (e) resolve(e.result);
      else setTimeout(look, 2);
    };
    look();
  })));
  assert.deepEqual(results, [6, 2, 'npy', 12]);
});
