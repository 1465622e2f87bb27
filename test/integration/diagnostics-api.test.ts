// runs.evaluate with diagnostics through the real engine: a tiny Darcy LiNO run's error spectrum,
// Darcy residual (prediction beside truth) and branch spectra come back in the job's result, and
// runs.evaluation answers the same kept result for the same ask.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { engineService } from '../helpers/engine-service';
import { CostReport, type EvaluationResult, type JobSummary } from '../../main/api/contract';
import { ladder } from '../../main/train/diagnostics/darcy-cost';

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
  assert.ok(d.physics!.mean.truth! < d.physics!.mean.prediction, JSON.stringify(d.physics!.mean));
  assert.equal(res.branchSpectra!.blocks.length, 1);
  assert.equal(res.branchSpectra!.samples, 2);
  const kept = (await service.call('runs.evaluation', { id: r.id, checkpoint: 'last', diagnostics: true })) as EvaluationResult | null;
  assert.deepEqual(kept?.resolutions[0]!.diagnostics!.physics!.mean, d.physics!.mean);
  // without diagnostics it is another ask (nothing kept for it)
  assert.equal(await service.call('runs.evaluation', { id: r.id, checkpoint: 'last' }), null);
});

test('cost.benchmark: the solver at 15 and 29 and a run timed in one job; an unknown run is refused by name', async () => {
  const r = await trained({ name: 'cost-api', model: { width: 4, depth: 1 }, epochs: 1, batchSize: 2,
    data: { kind: 'generate', benchmark: 'darcy', preset: 'tiny', samples: 6, train: 4, val: 2 } });
  const job = (await service.call('cost.benchmark', { benchmark: 'darcy', resolutions: [15, 29], samples: 2, runs: [r.id], checkpoint: 'last' })) as JobSummary;
  const done = await settled(job.id, 120_000);
  assert.equal(done.state, 'done', done.error);
  assert.equal(done.label, 'Accuracy against cost (darcy, 1 run)');
  const rep = CostReport.parse(done.result);
  assert.deepEqual(rep.rows.map((x) => `${x.kind}:${x.resolution}:${x.batch}`), ['solver:15:1', 'solver:29:1', 'model:29:1', 'model:29:2']);
  assert.ok(rep.rows[0]!.relL2! > 0 && rep.rows[1]!.relL2 === null);
  await assert.rejects(service.call('cost.benchmark', { benchmark: 'darcy', runs: ['no-such-run'] }), /no-such-run/);
  // without resolutions: around the run's grid, every one striding the finest
  assert.deepEqual(ladder(29), [15, 29, 57]);
  assert.deepEqual(ladder(85), [43, 85, 169]);
  assert.deepEqual(ladder(undefined), [29, 57, 113]);
  assert.deepEqual(ladder(12), [12, 23]);
  await assert.rejects(service.call('cost.benchmark', { benchmark: 'airfoil' } as never), /invalid parameter 'benchmark'/);
});

test('cost.benchmark for Burgers (a run, grids around its own) and Navier-Stokes (the solver alone) in the analysis lane', async () => {
  const r = await trained({ name: 'cost-burgers-api', model: { kind: 'fno', width: 4, depth: 1, modes: 4 }, epochs: 1, batchSize: 2,
    data: { kind: 'generate', benchmark: 'burgers', preset: 'tiny', samples: 4, train: 3, val: 1 } });
  assert.equal(r.state, 'done', r.reason);
  const job = (await service.call('cost.benchmark', { benchmark: 'burgers', samples: 2, runs: [r.id], checkpoint: 'last' })) as JobSummary;
  const done = await settled(job.id, 120_000);
  assert.equal(done.state, 'done', done.error);
  assert.equal(done.label, 'Accuracy against cost (burgers, 1 run)');
  const rep = CostReport.parse(done.result);
  assert.equal(rep.benchmark, 'burgers');
  // the run's 64 points: half, once, twice and four times (the tiny data's own 256-point solve is the reference)
  assert.deepEqual(rep.rows.map((x) => `${x.kind}:${x.resolution}:${x.batch}`), ['solver:32:1', 'solver:64:1', 'solver:128:1', 'solver:256:1', 'model:64:1', 'model:64:2']);
  assert.ok(rep.rows.slice(0, 3).every((x) => x.relL2! > 0) && rep.rows[3]!.relL2 === null);
  const ns = (await service.call('cost.benchmark', { benchmark: 'navier-stokes', resolutions: [8, 16], samples: 1 })) as JobSummary;
  const nsDone = await settled(ns.id, 120_000);
  assert.equal(nsDone.state, 'done', nsDone.error);
  const nsRep = CostReport.parse(nsDone.result);
  assert.deepEqual(nsRep.window, { tIn: 10, tOut: 10 }, 'without a run: the presets\' window');
  assert.deepEqual(nsRep.rows.map((x) => `${x.kind}:${x.resolution}`), ['solver:8', 'solver:16']);
  assert.ok(nsRep.rows[0]!.relL2! > 0 && nsRep.rows[1]!.relL2 === null);
  // a run of another benchmark fails the job, naming the run and both benchmarks
  const bad = await settled(((await service.call('cost.benchmark', { benchmark: 'navier-stokes', resolutions: [8, 16], samples: 1, runs: [r.id] })) as JobSummary).id, 120_000);
  assert.equal(bad.state, 'failed');
  assert.match(bad.error ?? '', new RegExp(`run ${r.id} was trained on 'burgers' data, the benchmark is navier-stokes`));
});
