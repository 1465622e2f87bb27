// The backend picker's measured "x× faster", through the real engine and Debian's python3-torch:
// train.measureTorchSpeed times a few steps of the fixed LiNO case on torch cpu and on the engine's
// backend in a 'torch-speed' job (the engine keeps answering meanwhile), keeps the result in the
// workspace, train.torchSpeed reads it back; measuring again replaces it, a damaged file is named
// and replaced; bad parameters and a device the probe rules out are refused at once.
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { JobSummary, TorchSpeed } from '../../../main/api/contract';
import { engineService } from '../../helpers/engine-service';

const PY = '/usr/bin/python3';
const skip = spawnSync(PY, ['-c', 'import torch, numpy']).status !== 0 ? `${PY} cannot import torch and numpy` : false;
process.env.LINO_PYTHON = PY; // the forked engine inherits it
process.env.OMP_NUM_THREADS = '1';
const { service, workspace, settled, lastJob } = engineService();
before(async () => {
  await service.call('engine.info', {});
});

type Speeds = { engineBackend: string; measured: TorchSpeed[]; problem?: string };
const speeds = () => service.call('train.torchSpeed', {}) as Promise<Speeds>;
const file = join(workspace, '.lino', 'torch-speed.json');

/** Measures torch cpu (2 timed steps); a ping sent while the job runs is answered before it ends. */
async function measure(): Promise<TorchSpeed> {
  const job = (await service.call('train.measureTorchSpeed', { device: 'cpu', steps: 2 })) as JobSummary;
  assert.deepEqual([job.kind, job.lane, job.label], ['torch-speed', 'analysis', 'PyTorch speed on cpu']);
  for (const t0 = Date.now(); lastJob(job.id)?.state !== 'running' && Date.now() - t0 < 60_000;) await new Promise((r) => setTimeout(r, 20));
  if (lastJob(job.id)?.state === 'running') {
    await service.call('engine.ping', { t: 1 });
    assert.notEqual(lastJob(job.id)?.state, 'done', 'the engine answered a ping while it measured');
  }
  const end = await settled(job.id, 240_000);
  assert.equal(end.state, 'done', end.error);
  return end.result as TorchSpeed;
}

test('bad parameters and a device the probe rules out are refused at once, naming the field', { skip }, async () => {
  const refused = async (params: unknown, field: RegExp) =>
    assert.rejects(service.call('train.measureTorchSpeed', params), (e: Error & { code?: string }) => {
      assert.equal(e.code, 'invalid_params', e.message);
      assert.match(e.message, field);
      return true;
    });
  await refused({}, /device/);
  await refused({ device: 'gpu' }, /device/);
  await refused({ device: 'cpu', steps: 0 }, /steps/);
  await refused({ device: 'cpu', steps: 21 }, /steps/);
  await refused({ device: 'cpu', steps: 2.5 }, /steps/);
  await refused({ device: 'cpu', python: '/bin/sh' }, /python/);
  // no Linux torch has Apple's MPS: the probe's reason, before any job
  if (process.platform !== 'darwin') await refused({ device: 'mps' }, /field 'device': mps cannot be timed: torch 1\.\d+.* has no Apple MPS device/);
  await assert.rejects(service.call('train.torchSpeed', { device: 'cpu' }), /device/);
  assert.equal(((await service.call('jobs.list', {})) as JobSummary[]).filter((j) => j.kind === 'torch-speed').length, 0, 'no job was queued');
});

test('measured on torch cpu and on the engine: positive step times, the ratio of the two, kept and read back; again replaces it', { skip, timeout: 600_000 }, async () => {
  const before = await speeds();
  assert.deepEqual(before.measured, []);
  assert.match(before.engineBackend, /^(wasm|cpu|webgpu|tensorflow)/);
  const t0 = Date.now();
  const s = await measure();
  console.log(`# measured: torch cpu ${s.torchMsPerStep.toFixed(1)} ms/step (${s.threads} threads), ${s.engineBackend} ${s.engineMsPerStep.toFixed(1)} ms/step: ${s.speedup.toFixed(2)}x on ${s.caseLabel}`);
  assert.deepEqual([s.device, s.python, s.engineBackend, s.steps, s.caseLabel], ['cpu', PY, before.engineBackend, 2, 'LiNO 32² (width 32, depth 4, batch 4)']);
  assert.match(s.torch, /^1\.\d+/);
  for (const k of ['torchMsPerStep', 'engineMsPerStep', 'speedup'] as const) assert.ok(Number.isFinite(s[k]) && s[k] > 0, `${k}: ${s[k]}`);
  assert.ok(s.torchWarmupMs > 0 && s.engineWarmupMs > 0);
  assert.ok(Math.abs(s.speedup - s.engineMsPerStep / s.torchMsPerStep) < 1e-9 * s.speedup, 'speedup is engine / torch');
  const at = Date.parse(s.measuredAt);
  assert.ok(at >= t0 - 1000 && at <= Date.now() + 1000, `measured at ${s.measuredAt}`);
  assert.deepEqual((await speeds()).measured, [s]);

  // a damaged file is named (nothing measured is claimed), and the next measurement replaces it
  const kept = readFileSync(file, 'utf8');
  assert.equal(JSON.parse(kept).entries.length, 1);
  writeFileSync(file, '{"format":"lino-torch-speed","version":1,"entries":[{"device":"cpu"}]}');
  const damaged = await speeds();
  assert.deepEqual(damaged.measured, []);
  assert.match(damaged.problem ?? '', /torch-speed\.json: field 'entries\.0\.\w+'.*measure again to replace it/);
  const again = await measure();
  assert.ok(Date.parse(again.measuredAt) > at);
  const after = await speeds();
  assert.deepEqual([after.measured, after.problem], [[again], undefined]);
});

test('a file that is not JSON reads as nothing measured, with its problem', { skip }, async () => {
  mkdirSync(join(workspace, '.lino'), { recursive: true });
  const saved = readFileSync(file, 'utf8');
  writeFileSync(file, 'not json');
  const r = await speeds();
  assert.deepEqual(r.measured, []);
  assert.match(r.problem ?? '', /torch-speed\.json: .*JSON.*measure again/);
  writeFileSync(file, saved);
});
