// Resolution transfer against solved data, through runs.evaluate and the real engine: a Darcy set
// generated in the workspace, a tiny run on it, evaluated at another grid with the data solved there
// by the generator (binary coefficient, the reference a direct generator solve of the same sample),
// kept in the workspace for the next evaluation; resampled says so; an imported-like dataset (no
// generator parameters) refuses "solved" naming why; the best/median/worst samples keep their identity.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { cpSync, existsSync, readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { engineService } from '../../helpers/engine-service';
import type { EvaluationResult, JobSummary } from '../../../main/api/contract';
import { darcySample } from '../../../main/data/generate/darcy';
import { resolveParams } from '../../../main/data/generate/presets';
import type { DarcyParams } from '../../../main/data/generate/presets';

const { service, settled, trained, workspace, lastJob } = engineService();
const NATIVE = 13;
const AT = 9;

async function evaluate(params: Record<string, unknown>): Promise<JobSummary> {
  const job = (await service.call('runs.evaluate', params as never)) as JobSummary;
  return settled(job.id, 120_000);
}

async function generatedSet(): Promise<string> {
  const job = (await service.call('datasets.generate', { benchmark: 'darcy', preset: 'tiny', resolution: NATIVE, samples: 6, train: 4, val: 2, test: 0 })) as JobSummary;
  const done = await settled(job.id, 90_000);
  assert.equal(done.state, 'done', done.error);
  return (done.result as { id: string }).id;
}

const run = async (name: string, id: string) => {
  const r = await trained({ name, model: { width: 4, depth: 1 }, data: { kind: 'dataset', id }, epochs: 1, batchSize: 2 });
  assert.equal(r.state, 'done', r.reason);
  return r.id;
};

const field = (res: EvaluationResult['resolutions'][number], which: string) => res.fields!.find((f) => f.which === which)!;

test('evaluate at another grid: solved by the generator (binary coefficient, a direct solve as reference), kept, same samples; resampled says so', { timeout: 300_000 }, async () => {
  const id = await generatedSet();
  const runId = await run('transfer-solved', id);
  const done = await evaluate({ id: runId, resolutions: [AT], fields: true, source: 'solved' });
  assert.equal(done.state, 'done', done.error);
  const ev = done.result as EvaluationResult;
  const [native, at] = ev.resolutions as [EvaluationResult['resolutions'][number], EvaluationResult['resolutions'][number]];
  assert.deepEqual(at.grid, [AT, AT]);
  assert.equal(at.source, 'solved');
  assert.match(at.origin!, new RegExp(`^solved at s = ${AT} by the generator \\(darcy 'tiny', generator seed 0; 2 validation samples, the same sample indices as at s = ${NATIVE}\\)$`));
  // the same samples at both grids: the native grid's median (and best, worst) kept
  for (const which of ['best', 'median', 'worst']) {
    assert.equal(field(at, which).index, field(native, which).index, which);
    assert.equal(field(at, which).sourceIndex, field(native, which).sourceIndex, which);
  }
  assert.equal(field(native, 'median').index, native.median);
  // the coefficient stays binary: only the generator's two values (decoded from float32 normalized values)
  const p = resolveParams('darcy', { preset: 'tiny', samples: 6, resolution: AT }) as DarcyParams;
  const m = field(at, 'median');
  const coeff = m.input[0]!;
  assert.equal(coeff.length, AT * AT);
  assert.ok(coeff.every((v) => Math.abs(v - p.low) < 1e-3 || Math.abs(v - p.high) < 1e-3), `non-binary values: ${coeff.filter((v) => Math.abs(v - p.low) >= 1e-3 && Math.abs(v - p.high) >= 1e-3).slice(0, 5).join(', ')}`);
  // the reference is the generator's own solve at s = 9 of that sample (seed 0, its source index, its field drawn at s = 13)
  const direct = darcySample(0, m.sourceIndex!, { ...p, nativeGrid: NATIVE });
  const ref = m.reference[0]!;
  let num = 0, den = 0;
  for (let i = 0; i < ref.length; i++) { num += (ref[i]! - direct.sol[i]!) ** 2; den += direct.sol[i]! ** 2; }
  assert.ok(Math.sqrt(num / den) < 1e-4, `reference vs direct solve: relative difference ${Math.sqrt(num / den)}`);
  assert.ok(coeff.every((v, i) => Math.abs(v - direct.coeff[i]!) < 1e-3), "the coefficient is that sample's random field at s = 9");

  // kept in the workspace: a second evaluation at that grid reuses the solved set
  const kept = join(workspace, 'datasets', '.solved');
  const folders = readdirSync(kept);
  assert.equal(folders.length, 1);
  const stamp = statSync(join(kept, folders[0]!, 'manifest.json')).mtimeMs;
  const again = await evaluate({ id: runId, resolutions: [AT] });
  assert.equal(again.state, 'done', again.error);
  assert.equal((again.result as EvaluationResult).resolutions[1]!.source, 'solved', 'solved is the default for generated data');
  assert.deepEqual(readdirSync(kept), folders);
  assert.equal(statSync(join(kept, folders[0]!, 'manifest.json')).mtimeMs, stamp);
  // the generated set's list does not show the kept solved set
  const listed = ((await service.call('workspace.get', {})) as { datasets: { id: string }[] }).datasets.map((d) => d.id);
  assert.deepEqual(listed, [id]);

  // a long solve reports its progress and cancels like a generation; nothing is kept of it
  const BIG = 321;
  const long = (await service.call('runs.evaluate', { id: runId, resolutions: [BIG], source: 'solved' } as never)) as JobSummary;
  for (const t0 = Date.now(); !/solving at s = 321: darcy: \d\/6 samples/.test(lastJob(long.id)?.message ?? ''); await new Promise((r) => setTimeout(r, 20))) {
    assert.ok(Date.now() - t0 < 60_000, `no solve progress: ${JSON.stringify(lastJob(long.id))}`);
    assert.ok(!['done', 'failed'].includes(lastJob(long.id)?.state ?? ''), `ended before it was cancelled: ${JSON.stringify(lastJob(long.id))}`);
  }
  await service.call('jobs.cancel', { id: long.id });
  assert.equal((await settled(long.id, 60_000)).state, 'cancelled');
  assert.deepEqual(readdirSync(kept), folders);
  assert.ok(!existsSync(join(kept, `darcy-s${BIG}`)));

  // resampled: interpolated from the native grid, and it says so; the interface values are blended
  const rs = await evaluate({ id: runId, resolutions: [AT], fields: true, source: 'resampled' });
  assert.equal(rs.state, 'done', rs.error);
  const r1 = (rs.result as EvaluationResult).resolutions[1]!;
  assert.equal(r1.source, 'resampled');
  assert.match(r1.origin!, new RegExp(`^resampled from s = ${NATIVE} `));
  assert.ok(field(r1, 'median').input[0]!.some((v) => v > p.low + 0.01 && v < p.high - 0.01), 'resampling blends the interface values');
  assert.equal(field(r1, 'median').index, field(native, 'median').index);
});

test('an imported-like dataset (no generator parameters) refuses solved, naming why; by default it is resampled and says why', { timeout: 300_000 }, async () => {
  const id = await generatedSet();
  // the same arrays, with a manifest that says they came from a file (as an imported FNO .mat does)
  const copy = `${id}-imported`;
  cpSync(join(workspace, 'datasets', id), join(workspace, 'datasets', copy), { recursive: true });
  const mf = join(workspace, 'datasets', copy, 'manifest.json');
  const m = JSON.parse(readFileSync(mf, 'utf8'));
  writeFileSync(mf, JSON.stringify({ ...m, id: copy, source: { kind: 'file', path: join(workspace, 'gone', 'piececonst_r421_N1024_smooth1.mat'), format: 'mat', size: 1, mtimeMs: 0, input: ['coeff'], target: 'sol' } }));
  const runId = await run('transfer-imported', copy);
  const refused = await evaluate({ id: runId, resolutions: [AT], source: 'solved' });
  assert.equal(refused.state, 'failed');
  assert.match(refused.error!, /source 'solved' at s = 9 refused: dataset .*-imported was imported from piececonst_r421_N1024_smooth1\.mat, not made by the workbench's generator: its manifest has no generator parameters/);
  const dflt = await evaluate({ id: runId, resolutions: [AT] });
  assert.equal(dflt.state, 'done', dflt.error);
  const r1 = (dflt.result as EvaluationResult).resolutions[1]!;
  assert.equal(r1.source, 'resampled');
  assert.match(r1.origin!, /^resampled from s = 13 \(the stored dataset's arrays, interpolated\) — not solved: dataset .* was imported from piececonst/);
  // the workspace lists why, for the Fields view's source choice
  const ds = ((await service.call('workspace.get', {})) as { datasets: { id: string; notSolvable?: string }[] }).datasets;
  assert.match(ds.find((d) => d.id === copy)!.notSolvable!, /imported from piececonst_r421_N1024_smooth1\.mat/);
  assert.equal(ds.find((d) => d.id === id)!.notSolvable, undefined);
});
