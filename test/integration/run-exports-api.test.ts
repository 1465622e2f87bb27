// Exports of a run from the app, through the service both hosts use and the real engine:
// "Run on a cluster…" (runs.exportForCluster) writes the same folder as `lino export-run`
// into a new folder under exports/ named after the run, as a job; a client never names a path.
// "Predictions for a split": runs.evaluate with exportPredictions writes the decoded
// predictions, the reference and the rows' sample indices as .npy or MAT v7.3, equal to what the
// same evaluation scores and shows.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { ClusterExportResult, type EvaluationResult, type ExportEntry, type JobSummary } from '../../main/api/contract';
import { openDataFile } from '../../main/data/formats';
import type { NdArray } from '../../main/data/ndarray';
import { RunStore } from '../../main/runs/run-store';
import { decodeNpy } from '../../main/data/formats/npy';
import { engineService } from '../helpers/engine-service';

const { service, events, workspace, settled, trained } = engineService();

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
  // The stored config with every default filled in (scaleout reads its defaults from it, copies none).
  const exported = JSON.parse(readFileSync(join(dir, 'config.json'), 'utf8')) as Record<string, unknown>;
  for (const [k, v] of Object.entries(run.readConfig() as Record<string, unknown>)) {
    if (typeof v !== 'object' || v === null) assert.deepEqual(exported[k], v, `config.json '${k}' as stored`);
    else assert.ok(k in exported, `config.json keeps '${k}'`);
  }
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

let trainedId = '';
test('a tiny trained run for the predictions export', { timeout: 120_000 }, async () => {
  const r = await trained({ ...config, name: 'predictions', epochs: 1 });
  assert.equal(r.state, 'done', r.reason);
  trainedId = r.id;
});

async function evaluate(params: Record<string, unknown>): Promise<EvaluationResult['resolutions'][number]> {
  const job = (await service.call('runs.evaluate', { id: trainedId, split: 'val', ...params })) as JobSummary;
  const done = await settled(job.id, 90_000);
  assert.equal(done.state, 'done', done.error);
  return (done.result as EvaluationResult).resolutions[0]!;
}

const nums = (a: NdArray) => Array.from(a.data as ArrayLike<number>, Number);

/** The rows' values of channel-last [n, ...grid, C] as the Fields view's per-channel lists. */
function channels(a: NdArray, row: number): number[][] {
  const C = a.shape[a.shape.length - 1]!;
  const P = a.shape.slice(1, -1).reduce((x, y) => x * y, 1);
  return Array.from({ length: C }, (_, c) => Array.from({ length: P }, (_, p) => Number(a.data[(row * P + p) * C + c])));
}

function assertNear(got: number[][], want: number[][], tol: number, what: string) {
  assert.equal(got.length, want.length, `${what}: channels`);
  got.forEach((g, c) => g.forEach((v, p) => assert.ok(Math.abs(v - want[c]![p]!) <= tol * Math.max(1, Math.abs(want[c]![p]!)), `${what}[${c}][${p}]: ${v} vs ${want[c]![p]}`)));
}

test('runs.evaluate exportPredictions: .npy and MAT v7.3 predictions, reference and indices equal the evaluation\'s', { timeout: 180_000 }, async () => {
  const shown = await evaluate({ fields: true });
  const npy = await evaluate({ exportPredictions: true, exportFormat: 'npy' });
  const mat = await evaluate({ exportPredictions: true, exportFormat: 'mat' });
  const base = `${trainedId}-best-val-8x8`;
  assert.deepEqual(npy.exportFiles, ['', '-reference', '-indices'].map((s) => join(workspace, 'exports', `${base}${s}.npy`)));
  assert.equal(npy.predictionsFile, join(workspace, 'exports', `${base}.npy`));
  assert.deepEqual(mat.exportFiles, [join(workspace, 'exports', `${base}.mat`)]);
  const read = (f: string) => decodeNpy(readFileSync(f), f, 'x');
  const [pred, ref, idx] = npy.exportFiles!.map(read) as [NdArray, NdArray, NdArray];
  const n = shown.n;
  assert.equal(n, 2);
  assert.deepEqual(pred.shape, [n, 8, 8, 1]);
  assert.deepEqual(ref.shape, pred.shape);
  assert.deepEqual([idx.shape, idx.dtype, nums(idx)], [[n], 'int32', [0, 1]], 'synthetic rows are numbered as read');
  // The rows the Fields view shows (best, median, worst) are the exported rows.
  for (const f of shown.fields!) {
    assertNear(channels(pred, f.index), f.prediction, 1e-6, `prediction row ${f.index}`);
    assertNear(channels(ref, f.index), f.reference, 1e-6, `reference row ${f.index}`);
  }
  // And the evaluation's decoded per-sample error is that of the exported pair.
  for (const s of npy.perSample) {
    const [p, r] = [channels(pred, s.index).flat(), channels(ref, s.index).flat()];
    const rel = Math.sqrt(p.reduce((t, v, i) => t + (v - r[i]!) ** 2, 0) / r.reduce((t, v) => t + v * v, 0));
    assert.ok(Math.abs(rel - s.relL2Decoded) <= 1e-4 * s.relL2Decoded, `sample ${s.index}: ${rel} vs ${s.relL2Decoded}`);
  }
  // The .mat holds the same three arrays (MATLAB keeps vectors as 1 x n rows).
  const file = await openDataFile(mat.predictionsFile!);
  try {
    assert.equal(file.format, 'mat73');
    const [mp, mr, mi] = [await file.read('prediction'), await file.read('reference'), await file.read('indices')];
    assert.deepEqual(mp.shape, pred.shape);
    assert.deepEqual(nums(mp), nums(pred));
    assert.deepEqual(nums(mr), nums(ref));
    assert.deepEqual(mi.shape, [1, n]);
    assert.deepEqual(nums(mi), [0, 1]);
  } finally {
    file.close();
  }
  const list = (await service.call('exports.list', {})) as ExportEntry[];
  for (const f of [...npy.exportFiles!, ...mat.exportFiles!]) assert.ok(list.some((e) => e.name === f.split('/').pop()), `listed: ${f}`);
  await assert.rejects(service.call('runs.evaluate', { id: trainedId, exportPredictions: true, exportFormat: 'csv' }), /invalid parameter 'exportFormat'/);
});
