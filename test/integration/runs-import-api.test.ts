// runs.importCheckpoint through the service both hosts use, with the real engine process: a
// release-format .pt chosen by the user (a file reference) becomes a run that runs.list shows
// and runs.evaluate explores (the Fields view's call); a hostile pickle is refused by name.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import type { EvaluationResult, JobSummary, RunSummary } from '../../main/api/contract';
import { engineService } from '../helpers/engine-service';

const FIX = new URL('../fixtures/pt/', import.meta.url).pathname;
const { service, settled } = engineService();

test('a release checkpoint imports through the API and evaluates with fields', { timeout: 120_000 }, async () => {
  const file = service.refs.issue(join(FIX, 'release-2d-eff.pt'));
  const r = (await service.call('runs.importCheckpoint', { file, data: { kind: 'synthetic', grid: [6, 5], train: 4, val: 3 } })) as { runId: string; notes: string[] };
  const runs = (await service.call('runs.list', {})) as RunSummary[];
  const s = runs.find((x) => x.id === r.runId)!;
  assert.equal(s.state, 'done');
  assert.equal(s.epochsDone, 7);
  assert.equal(s.name, 'imported release-2d-eff.pt');
  const job = (await service.call('runs.evaluate', { id: r.runId, fields: true })) as JobSummary;
  const done = await settled(job.id, 90_000);
  assert.equal(done.state, 'done', done.error);
  const ev = done.result as EvaluationResult;
  assert.equal(ev.epoch, 7);
  assert.equal(ev.resolutions[0]!.fields!.length, 3);
});

test('the API refuses a hostile pickle by name, runs nothing, and takes no made-up path', { timeout: 60_000 }, async () => {
  const marker = '/tmp/lino-pt-payload-ran';
  rmSync(marker, { force: true });
  const file = service.refs.issue(join(FIX, 'payload-os-system.pt'));
  await assert.rejects(service.call('runs.importCheckpoint', { file }), /refused global 'os\.system'/);
  assert.equal(existsSync(marker), false);
  await assert.rejects(service.call('runs.importCheckpoint', { file: 'f_notissuedbyhost1' }), /unknown file reference/);
  await assert.rejects(service.call('runs.importCheckpoint', { file: join(FIX, 'release-2d-eff.pt') }), /invalid parameter 'file'/);
});
