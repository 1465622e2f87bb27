// datasets.stats and datasets.export through the service both hosts use, with the real engine: the
// per-channel statistics equal those computed here from every sample the API previews, and a
// stored dataset exports as a job into exports/ (npy and MAT v7.3), listed by exports.list.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import type { DatasetSample, DatasetStats, ExportEntry, JobSummary } from '../../main/api/contract';
import { engineService } from '../helpers/engine-service';
import { runDatasetExport } from '../../main/engine/dataset-export-jobs';
import { decodeNpy } from '../../main/data/formats/npy';

const { service, events, workspace, settled } = engineService();


let datasetId = '';
test('a tiny Darcy set for the tests below', { timeout: 120_000 }, async () => {
  const job = (await service.call('datasets.generate', { benchmark: 'darcy', preset: 'tiny', samples: 12 })) as JobSummary;
  const done = await settled(job.id, 90_000);
  assert.equal(done.state, 'done', done.error);
  datasetId = (done.result as { id: string }).id;
});

test('datasets.stats: per-channel min/max/mean/std of a split equal those of every previewed sample', { timeout: 60_000 }, async () => {
  const s = (await service.call('datasets.stats', { id: datasetId, split: 'val' })) as DatasetStats;
  assert.equal(s.split, 'val');
  assert.deepEqual(s.x.map((c) => c.name), ['coeff'], 'coordinate channels left out');
  assert.equal(s.y.length, 1);
  const rows: DatasetSample[] = [];
  for (let i = 0; i < s.count; i++) rows.push((await service.call('datasets.sample', { id: datasetId, split: 'val', index: i })) as DatasetSample);
  for (const [which, k] of [['x', 0], ['y', 0]] as const) {
    const all = rows.flatMap((r) => r[which][k]!.values);
    const mean = all.reduce((a, b) => a + b, 0) / all.length;
    const std = Math.sqrt(all.reduce((a, b) => a + (b - mean) ** 2, 0) / all.length);
    const got = s[which][k]!;
    const tol = 1e-4 * Math.max(1, Math.abs(mean), std);
    assert.ok(Math.abs(got.mean! - mean) < tol, `${which} mean ${got.mean} vs ${mean}`);
    assert.ok(Math.abs(got.std! - std) < tol, `${which} std ${got.std} vs ${std}`);
    assert.ok(Math.abs(got.min! - Math.min(...all)) < tol && Math.abs(got.max! - Math.max(...all)) < tol, `${which} range`);
  }
  const train = (await service.call('datasets.stats', { id: datasetId })) as DatasetStats;
  assert.equal(train.split, 'train', 'train is the default split');
  const counts = (await service.call('datasets.sample', { id: datasetId, split: 'train', index: 0 })) as DatasetSample;
  for (const split of ['train', 'val', 'test'] as const) {
    const st = (await service.call('datasets.stats', { id: datasetId, split })) as DatasetStats;
    assert.equal(st.count, counts.counts[split], split);
    // An empty split answers nulls (no numbers to summarize), not NaN.
    if (st.count === 0) assert.deepEqual(st.x[0], { name: 'coeff', min: null, max: null, mean: null, std: null });
    else assert.ok(st.x[0]!.std! > 0, split);
  }
  await assert.rejects(service.call('datasets.stats', { id: 'nope' }), /no dataset 'nope'/);
  await assert.rejects(service.call('datasets.stats', { id: '../x' }), /invalid parameter 'id'/);
});

test('datasets.export: npy and MAT v7.3 into exports/, as jobs with progress, listed by exports.list', { timeout: 90_000 }, async () => {
  const npy = (await service.call('datasets.export', { id: datasetId, format: 'npy', layout: 'raw' })) as JobSummary;
  const mat = (await service.call('datasets.export', { id: datasetId, format: 'mat73' })) as JobSummary;
  assert.equal(npy.kind, 'export');
  const [a, b] = [await settled(npy.id), await settled(mat.id)];
  assert.equal(a.state, 'done', a.error);
  assert.equal(b.state, 'done', b.error);
  const ra = a.result as { folder: string; files: string[] };
  assert.equal(ra.folder, `${datasetId}-raw-npy`);
  const coeffPath = join(workspace, 'exports', ra.folder, 'coeff.npy');
  const coeff = decodeNpy(readFileSync(coeffPath), coeffPath, 'coeff');
  assert.equal(coeff.shape.length, 3, 'coeff [n, s, s]');
  assert.equal(coeff.shape[0], 12, 'every row of every split');
  assert.ok(events.some((e) => e.type === 'job' && e.job.id === npy.id && e.job.state === 'running' && e.job.progress > 0 && e.job.progress < 1), 'progress reported');
  const rb = b.result as { folder: string; files: string[] };
  const matBytes = readFileSync(join(workspace, 'exports', rb.files.find((f) => f.endsWith('.mat'))!));
  assert.equal(matBytes.subarray(512, 520).toString('latin1'), '\x89HDF\r\n\x1a\n', 'MAT v7.3 is HDF5 after the 512-byte header');
  const list = (await service.call('exports.list', {})) as ExportEntry[];
  for (const f of [...ra.files, ...rb.files]) assert.ok(list.some((e) => e.name === f), `listed: ${f}`);
  // The same export again gets its own folder; nothing is overwritten.
  const again = await settled(((await service.call('datasets.export', { id: datasetId, format: 'npy' })) as JobSummary).id);
  assert.equal((again.result as { folder: string }).folder, `${datasetId}-raw-npy-2`);
  await assert.rejects(service.call('datasets.export', { id: datasetId, format: 'csv' }), /invalid parameter 'format'/);
  await assert.rejects(service.call('datasets.export', { id: 'nope' }), /no dataset 'nope'|not_found/);
});

test('datasets.export: cancelled while queued or while writing, it leaves nothing behind', { timeout: 90_000 }, async () => {
  // Queued: behind another export (exports have a lane of their own, one at a time; a generation
  // no longer holds them back).
  // Four asked at once: the last waits for three to finish, so it is still queued when cancelled.
  const asked = (await Promise.all([0, 1, 2, 3].map(() => service.call('datasets.export', { id: datasetId, format: 'npy', layout: 'prepared' })))) as JobSummary[];
  const queued = asked[3]!;
  assert.deepEqual(await service.call('jobs.cancel', { id: queued.id }), { ok: true });
  assert.equal((await settled(queued.id)).state, 'cancelled');
  for (const j of asked.slice(0, 3)) assert.equal((await settled(j.id)).state, 'done');
  assert.equal(((await service.call('jobs.list', {})) as JobSummary[]).find((j) => j.id === queued.id)!.state, 'cancelled', 'jobs.list shows it cancelled');
  const exported = () => readdirSync(join(workspace, 'exports')).filter((n) => n.startsWith(`${datasetId}-prepared-npy`) || n.startsWith('.')).sort();
  assert.deepEqual(exported(), [`${datasetId}-prepared-npy`, `${datasetId}-prepared-npy-2`, `${datasetId}-prepared-npy-3`], 'three exports written, nothing of the cancelled one');
  // Writing: the job's own code (as the engine runs it), cancelled after its first variable.
  const ac = new AbortController();
  let progressCalls = 0;
  await assert.rejects(
    runDatasetExport({ workspace, id: datasetId, format: 'npy', layout: 'prepared' }, { signal: ac.signal, progress: () => { if (++progressCalls === 3) ac.abort(); } }),
    /cancelled/,
  );
  assert.deepEqual(exported(), [`${datasetId}-prepared-npy`, `${datasetId}-prepared-npy-2`, `${datasetId}-prepared-npy-3`], 'no folder and no partial folder for a cancelled export');
});
