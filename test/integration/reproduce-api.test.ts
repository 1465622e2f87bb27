// reproduce.list and reproduce.start through the service both hosts use and the real
// engine: the list with sizes and estimated times; an unknown preset, a bad size or a client path
// refused by name; a 'reproduce' job cancelled mid-run ends 'cancelled' (only reproduce.start
// starts one: jobs.start refuses the kind); the host picks the output folder under exports/.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { JobSummary } from '../../main/api/contract';
import type { ReproducePresetInfo } from '../../main/api/reproduce';
import { engineService } from '../helpers/engine-service';

const { service, lastJob, settled } = engineService();

test('reproduce.list: six presets with tiny, quick and paper sizes and estimated times', async () => {
  const list = (await service.call('reproduce.list', {})) as ReproducePresetInfo[];
  assert.deepEqual(list.map((p) => p.name), ['burgers', 'darcy-resolution', 'darcy-ablation', 'darcy-scattering', 'navier-stokes', 'airfoil']);
  for (const p of list) {
    assert.deepEqual(p.sizes.map((s) => s.size), ['tiny', 'quick', 'paper']);
    assert.ok(p.sizes.every((s) => s.estimateSeconds > 0));
  }
});

test('reproduce.start refuses an unknown preset, a bad size, a client path and a direct jobs.start', async () => {
  await assert.rejects(service.call('reproduce.start', { name: 'no-such' }), /invalid parameter 'name'/);
  await assert.rejects(service.call('reproduce.start', { name: 'burgers', size: 'huge' } as never), /invalid parameter 'size'/);
  await assert.rejects(service.call('reproduce.start', { name: 'burgers', out: '/tmp/x' } as never), /invalid parameter/);
  await assert.rejects(service.call('jobs.start', { kind: 'reproduce' as never, params: {} }), /invalid parameter 'kind'/);
});

test('a reproduce job reports progress and can be cancelled', { timeout: 120_000 }, async () => {
  const job = (await service.call('reproduce.start', { name: 'darcy-ablation', size: 'tiny' })) as JobSummary;
  assert.equal(job.kind, 'reproduce');
  assert.equal(job.label, 'Reproduce darcy-ablation (tiny)');
  const t0 = Date.now();
  while ((lastJob(job.id)?.progress ?? 0) === 0 && Date.now() - t0 < 90_000) await new Promise((r) => setTimeout(r, 20));
  assert.ok((lastJob(job.id)?.progress ?? 0) > 0, 'progress reported');
  await service.call('jobs.cancel', { id: job.id });
  assert.equal((await settled(job.id, 60_000)).state, 'cancelled');
});
