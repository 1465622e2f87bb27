// Exports of a run from the app, through the service both hosts use and the real engine:
// "Run on a cluster…" (runs.exportForCluster, issue 15) writes the same folder as `lino export-run`
// into a new folder under exports/ named after the run, as a job; a client never names a path.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { ClusterExportResult, type ExportEntry, type JobSummary } from '../../main/api/contract';
import { RunStore } from '../../main/runs/run-store';
import { decodeNpy } from '../../main/data/formats/npy';
import { engineService } from '../helpers/engine-service';

const { service, events, workspace, settled } = engineService();

const config = {
  name: 'cluster-export',
  model: { width: 8, depth: 1 },
  data: { kind: 'synthetic', grid: [8, 8], train: 6, val: 2, seed: 3 },
  epochs: 2,
  batchSize: 2,
  seed: 5,
};

test('runs.exportForCluster: a job writing data, config, scaleout/, run.sh, slurm.sbatch and README into exports/<run>-cluster', { timeout: 90_000 }, async () => {
  const run = new RunStore(join(workspace, 'runs')).create(config);
  const job = (await service.call('runs.exportForCluster', { id: run.id, nprocPerNode: 2 })) as JobSummary;
  assert.equal(job.kind, 'cluster-export');
  const done = await settled(job.id);
  assert.equal(done.state, 'done', done.error);
  const r = ClusterExportResult.parse(done.result);
  assert.equal(r.folder, `${run.id}-cluster`);
  const dir = join(workspace, 'exports', r.folder);
  assert.equal(r.path, dir);
  for (const f of ['config.json', 'run.sh', 'slurm.sbatch', 'README.md', 'scaleout/train.py', 'data/train_x.npy', 'data/val_y.npy']) {
    assert.ok(existsSync(join(dir, f)), `${f} written`);
  }
  assert.deepEqual(JSON.parse(readFileSync(join(dir, 'config.json'), 'utf8')), run.readConfig(), 'the run\'s config as stored');
  const x = decodeNpy(readFileSync(join(dir, 'data/train_x.npy')), 'train_x.npy', 'x');
  assert.equal(x.shape[0], 6, 'every training sample');
  assert.ok(statSync(join(dir, 'run.sh')).mode & 0o100, 'run.sh is executable');
  assert.match(readFileSync(join(dir, 'run.sh'), 'utf8'), /NPROC:-2/);
  assert.match(readFileSync(join(dir, 'slurm.sbatch'), 'utf8'), /--gpus-per-node=2/);
  assert.match(r.command, /^torchrun --standalone --nproc_per_node=2 -m scaleout\.train --run-dir runs\/.*-cluster --data data --config config\.json$/);
  for (const f of r.files) assert.ok(existsSync(join(workspace, 'exports', f)), `listed file exists: ${f}`);
  assert.ok(!readdirSync(join(workspace, 'exports')).some((n) => n.startsWith('.')), 'no temporary folder left');
  assert.ok(events.some((e) => e.type === 'job' && e.job.id === job.id && e.job.state === 'running' && e.job.progress > 0 && e.job.progress < 1), 'progress reported');
  const list = (await service.call('exports.list', {})) as ExportEntry[];
  assert.ok(list.some((e) => e.name === `${r.folder}/config.json`), 'exports.list shows it');
  // Again: a new folder, the first export untouched.
  const again = await settled(((await service.call('runs.exportForCluster', { id: run.id })) as JobSummary).id);
  assert.equal(ClusterExportResult.parse(again.result).folder, `${run.id}-cluster-2`);
  assert.match(readFileSync(join(dir, 'run.sh'), 'utf8'), /NPROC:-2/, 'the first export is not overwritten');
});

test('runs.exportForCluster refuses a hostile or unknown id, a client path and a direct jobs.start', async () => {
  const before = readdirSync(join(workspace, 'exports')).sort();
  for (const id of ['../runs', '..', '/etc', 'a/../../b', '']) {
    await assert.rejects(service.call('runs.exportForCluster', { id }), /invalid parameter 'id'/, id);
  }
  await assert.rejects(service.call('runs.exportForCluster', { id: 'no-such-run' }), /no-such-run/);
  await assert.rejects(service.call('runs.exportForCluster', { id: 'x', out: '/tmp/x' } as never), /invalid|unrecognized/i);
  await assert.rejects(service.call('jobs.start', { kind: 'cluster-export', params: { workspace: '/tmp', runId: 'x' } }), /invalid parameter 'kind'/);
  assert.deepEqual(readdirSync(join(workspace, 'exports')).sort(), before, 'nothing written');
});
