// Hardening II through the real engine process and the service both hosts use:
// the DAG checkpoint is refused while engine.ping keeps answering within 1 s (the checkpoint
// decodes in a worker with a deadline), a FIFO is listed without a reference and refused by name,
// and cancelling a queued train job marks its run stopped (repro 4).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { JobSummary, RunSummary } from '../../main/api/contract';
import { engineService } from '../helpers/engine-service';
import { tempDir } from '../helpers/env';

process.env.LINO_BACKEND = 'cpu'; // read by the engine process, forked on the first call
const FIX = new URL('../fixtures/pt/', import.meta.url).pathname;
const home = tempDir('lino-hostile-home-');
const { service, workspace } = engineService({ homeRoot: home.path });

test('repro 1: runs.importCheckpoint of the DAG file is refused by name while engine.ping answers within 1 s', { timeout: 120_000 }, async () => {
  await service.call('engine.ping', { t: 0 }); // engine up before timing anything
  const file = service.refs.issue(join(FIX, 'dag-args.pt'));
  let pending = true;
  const imp = service.call('runs.importCheckpoint', { file }).finally(() => { pending = false; });
  imp.catch(() => {});
  const latencies: number[] = [];
  while (pending) {
    const t0 = Date.now();
    await service.call('engine.ping', { t: t0 });
    latencies.push(Date.now() - t0);
    await new Promise((r) => setTimeout(r, 50));
  }
  await assert.rejects(imp, /dag-args\.pt: field 'args' holds more than 100000 values/);
  assert.ok(latencies.length >= 1, 'pinged while the import ran');
  assert.ok(Math.max(...latencies) < 1000, `every ping answered within 1 s (${latencies.join(', ')} ms)`);
  assert.deepEqual(((await service.call('runs.list', {})) as RunSummary[]).filter((r) => r.name?.includes('dag-args')), [], 'no run left behind');
});

test('repro 2: a FIFO is listed without a reference, and importing it is refused by name without blocking the engine', { timeout: 60_000 }, async () => {
  mkdirSync(join(home.path, 'imports'));
  execFileSync('mkfifo', [join(home.path, 'imports', 'f.pt')]);
  const listing = (await service.call('files.list', { root: 'home', rel: 'imports' })) as { entries: { name: string; ref?: string }[] };
  assert.equal(listing.entries.length, 1);
  assert.match(listing.entries[0]!.name, /^f\.pt \[not a regular file \(a FIFO\): not opened\]$/);
  assert.equal(listing.entries[0]!.ref, undefined);
  const file = service.refs.issue(join(home.path, 'imports', 'f.pt'));
  await assert.rejects(service.call('runs.importCheckpoint', { file }), /f\.pt: is not a regular file \(it is a FIFO \(named pipe\)\); it is not read/);
  assert.equal(((await service.call('engine.ping', { t: 7 })) as { t: number }).t, 7);
});

test('repro 4: jobs.cancel of a queued train job marks its run stopped in status.json and runs.list', { timeout: 180_000 }, async () => {
  const config = { model: { width: 4, depth: 1 }, data: { kind: 'synthetic', grid: [8], train: 4, val: 2, seed: 1 }, epochs: 1, batchSize: 2 };
  const started = [];
  for (let i = 0; i < 3; i++) started.push((await service.call('train.start', { config: { ...config, name: `q${i}` } } as never)) as { runId: string; job: JobSummary });
  const [, second, third] = started;
  assert.equal((await service.call('jobs.cancel', { id: second!.job.id }) as { ok: boolean }).ok, true);
  const runState = async (id: string) => ((await service.call('runs.list', {})) as RunSummary[]).find((r) => r.id === id)?.state;
  for (const t0 = Date.now(); (await runState(third!.runId)) !== 'done'; await new Promise((r) => setTimeout(r, 200))) {
    if (Date.now() - t0 > 150_000) throw new Error(`run 3 did not finish (state ${await runState(third!.runId)})`);
  }
  const job = ((await service.call('jobs.list', {})) as JobSummary[]).find((j) => j.id === second!.job.id)!;
  assert.equal(job.state, 'cancelled');
  assert.equal(await runState(second!.runId), 'stopped');
  const status = JSON.parse(readFileSync(join(workspace, 'runs', second!.runId, 'status.json'), 'utf8')) as { state: string; reason?: string };
  assert.equal(status.state, 'stopped');
  assert.match(status.reason ?? '', /before it started/);
});
