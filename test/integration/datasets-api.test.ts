// datasets.presets / datasets.generate / datasets.sample through the service both hosts use, with
// the real engine process and the real generators: a tiny Darcy set lands in the workspace's
// dataset store, a sample reads back with its grid, a long generation cancels.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { DatasetSample, JobSummary, WorkspaceSummary } from '../../main/api/contract';
import { engineService } from '../helpers/engine-service';

const { service, events, workspace, lastJob, settled } = engineService();


test('presets list every benchmark with tiny, quick and paper parameters', async () => {
  const presets = (await service.call('datasets.presets', {})) as { benchmark: string; presets: Record<string, Record<string, unknown>> }[];
  assert.deepEqual(presets.map((p) => p.benchmark).sort(), ['airfoil', 'burgers', 'darcy', 'navier-stokes']);
  const darcy = presets.find((p) => p.benchmark === 'darcy')!;
  assert.deepEqual(Object.keys(darcy.presets).sort(), ['paper', 'quick', 'tiny']);
  assert.equal(darcy.presets.tiny!.resolution, 29);
});

test('a tiny Darcy set generates into the workspace and a sample reads back per channel', { timeout: 120_000 }, async () => {
  const job = (await service.call('datasets.generate', { benchmark: 'darcy', preset: 'tiny' })) as JobSummary;
  assert.equal(job.kind, 'generate');
  const done = await settled(job.id, 90_000);
  assert.equal(done.state, 'done', done.error);
  const r = done.result as { id: string; grid: number[]; counts: { train: number; val: number } };
  assert.deepEqual(r.grid, [29, 29]);
  assert.ok(existsSync(join(workspace, 'datasets', r.id, 'manifest.json')));
  const summary = (await service.call('workspace.get', {})) as WorkspaceSummary;
  assert.ok(summary.datasets.some((d) => d.id === r.id));
  assert.ok(events.some((e) => e.type === 'job' && e.job.id === job.id && e.job.state === 'running' && e.job.progress > 0 && e.job.progress < 1), 'progress reported');

  const s = (await service.call('datasets.sample', { id: r.id, split: 'train', index: 1 })) as DatasetSample;
  assert.equal(s.count, r.counts.train);
  assert.deepEqual(s.grid, [29, 29]);
  assert.deepEqual(s.x.map((c) => c.name), ['coeff'], 'the coordinate channels are left out');
  assert.equal(s.y.length, 1);
  for (const c of [...s.x, ...s.y]) assert.equal(c.values.length, 29 * 29, c.name);
  // Darcy's coefficient is piecewise constant (two values: 12 and 3 in the FNO convention).
  const coeff = new Set(s.x[0]!.values.map((v) => Math.round(v * 1000) / 1000));
  assert.ok(coeff.size <= 2, `coefficient values ${[...coeff].slice(0, 5).join(', ')}`);
  // Statistics: the coefficient's range covers the sample's values (12 and 3 in the FNO convention).
  assert.ok(s.stats.x.min <= Math.min(...s.x[0]!.values) + 1e-4 && s.stats.x.max >= Math.max(...s.x[0]!.values) - 1e-4, JSON.stringify(s.stats.x));
  assert.ok(s.stats.y.std > 0);
  await assert.rejects(service.call('datasets.sample', { id: r.id, split: 'train', index: 999 }), /sample 999 is out of range: the train split has \d+ rows/);
  await assert.rejects(service.call('datasets.sample', { id: 'nope', index: 0 }), /no dataset 'nope'/);
  await assert.rejects(service.call('datasets.sample', { id: '../x', index: 0 }), /invalid parameter 'id'/);
});

test('a long generation cancels', { timeout: 90_000 }, async () => {
  const job = (await service.call('datasets.generate', { benchmark: 'darcy', preset: 'quick' })) as JobSummary;
  const t0 = Date.now();
  while ((lastJob(job.id)?.state ?? 'queued') !== 'running' && Date.now() - t0 < 30_000) await new Promise((r) => setTimeout(r, 20));
  await service.call('jobs.cancel', { id: job.id });
  const end = await settled(job.id, 30_000);
  assert.equal(end.state, 'cancelled');
});
