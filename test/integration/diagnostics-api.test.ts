// runs.evaluate with diagnostics through the real engine: a tiny Darcy LiNO run's error spectrum,
// Darcy residual (prediction beside truth) and branch spectra come back in the job's result, and
// runs.evaluation answers the same kept result for the same ask.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { engineService } from '../helpers/engine-service';
import type { EvaluationResult, JobSummary } from '../../main/api/contract';

const { service, settled, trained } = engineService();

test('runs.evaluate diagnostics: spectrum, physics and branch spectra; runs.evaluation keeps them', async () => {
  const r = await trained({ name: 'diag-api', model: { width: 6, depth: 1 }, epochs: 1, batchSize: 2,
    data: { kind: 'generate', benchmark: 'darcy', preset: 'tiny', samples: 6, train: 4, val: 2 } });
  assert.equal(r.state, 'done', r.reason);
  const job = (await service.call('runs.evaluate', { id: r.id, checkpoint: 'last', diagnostics: true })) as JobSummary;
  const done = await settled(job.id, 120_000);
  assert.equal(done.state, 'done', done.error);
  const res = done.result as EvaluationResult;
  const d = res.resolutions[0]!.diagnostics!;
  assert.deepEqual(d.spectrum!.grid, [29, 29]);
  assert.ok(d.spectrum!.mean.fRmse.low! > 0);
  assert.equal(d.physics!.benchmark, 'darcy');
  assert.ok(d.physics!.mean.truth < d.physics!.mean.prediction, JSON.stringify(d.physics!.mean));
  assert.equal(res.branchSpectra!.blocks.length, 1);
  assert.equal(res.branchSpectra!.samples, 2);
  const kept = (await service.call('runs.evaluation', { id: r.id, checkpoint: 'last', diagnostics: true })) as EvaluationResult | null;
  assert.deepEqual(kept?.resolutions[0]!.diagnostics!.physics!.mean, d.physics!.mean);
  // without diagnostics it is another ask (nothing kept for it)
  assert.equal(await service.call('runs.evaluation', { id: r.id, checkpoint: 'last' }), null);
});
