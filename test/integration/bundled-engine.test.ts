// The desktop app runs the engine from its esbuild bundle (dist/engine), not through tsx. This
// forks that bundle with plain Node and drives it through the same service: its worker threads
// (generators, training loop) must load from beside the bundle.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync, fork } from 'node:child_process';
import { copyFileSync, existsSync, readFileSync } from 'node:fs';
import { WorkbenchService } from '../../main/services/workbench-service';
import type { EngineLauncher } from '../../main/services/engine-launcher';
import type { FromEngine, ToEngine } from '../../main/api/engine-protocol';
import type { JobSummary, WorkbenchEvent } from '../../main/api/contract';
import { tempDir, isolateConfig } from '../helpers/env';
import { ROOT } from '../helpers/host';
import { waitFor } from '../helpers/wait';

const bundleLauncher: EngineLauncher = () => {
  // the threaded wasm build (opt-in) in the bundle: its pool worker script must ship beside it
  const child = fork(`${ROOT}dist/engine/engine-process.js`, [], { execArgv: [], stdio: ['ignore', 'inherit', 'inherit', 'ipc'], env: { ...process.env, LINO_WASM_THREADS: '2' } });
  return {
    get pid() { return child.pid; },
    send: (m: ToEngine) => { if (child.connected) child.send(m); },
    onMessage: (l) => child.on('message', (m) => l(m as FromEngine)),
    onExit: (l) => child.once('exit', (c, s) => l(c, s)),
    kill: () => child.kill('SIGKILL'),
  };
};

const restore = isolateConfig();
const ws = tempDir('lino-bundle-');
let service: WorkbenchService;
const events: WorkbenchEvent[] = [];
before(() => {
  const b = spawnSync(process.execPath, [`${ROOT}scripts/build.mjs`, 'engine'], { stdio: 'inherit' });
  assert.equal(b.status, 0, 'engine bundle builds');
  service = new WorkbenchService({ host: 'electron', launcher: bundleLauncher, workspace: ws.path });
  service.onEvent((e) => events.push(e));
});
after(async () => {
  await service.dispose();
  ws.cleanup();
  restore();
});


test('the bundled engine starts without tsx, generates a dataset and trains a run', { timeout: 240_000 }, async () => {
  const info = (await service.call('engine.info', {})) as { backend: { active: string } };
  assert.ok(info.backend.active.length > 0);
  const job = (await service.call('datasets.generate', { benchmark: 'darcy', preset: 'tiny' })) as JobSummary;
  const gen = await waitFor(() => {
    const j = [...events].reverse().find((e) => e.type === 'job' && e.job.id === job.id && ['done', 'failed', 'cancelled'].includes(e.job.state));
    return j?.type === 'job' ? j.job : undefined;
  }, 120_000, 'generation');
  assert.equal(gen.state, 'done', gen.error);
  const { runId } = (await service.call('train.start', {
    // workers: 2 — the data-parallel thread loads dist/engine/data-parallel-worker.js beside the bundle
    config: { name: 'bundle', model: { width: 8, depth: 1 }, epochs: 2, batchSize: 2, workers: 2, data: { kind: 'generate', benchmark: 'darcy', preset: 'tiny', samples: 6, train: 4, val: 2 } },
  })) as { runId: string };
  const end = await waitFor(() => {
    const e = events.find((x) => x.type === 'run' && x.runId === runId && ['done', 'failed', 'stopped'].includes(x.state));
    return e?.type === 'run' ? e : undefined;
  }, 180_000, 'run end');
  assert.equal(end.state, 'done', end.reason);
  const log = readFileSync(`${ws.path}/runs/${runId}/events.log`, 'utf8');
  assert.match(log, ['wasm', 'cpu'].includes(info.backend.active) ? /data-parallel: 2 threads per step/ : /workers: 2 asked, training with 1/);
  // LINO_WASM_THREADS=2 (this file's engine): the train worker starts wasm's threaded build
  if (info.backend.active === 'wasm') assert.match(log, /training on wasm \(WebAssembly SIMD, 2 threads for products of 24 Mflop or more\)/);
});

test('the bundled engine lists a data file in its inspect worker, shipped beside the bundle', { timeout: 60_000 }, async () => {
  assert.ok(existsSync(`${ROOT}dist/engine/inspect-worker.js`), 'dist/engine/inspect-worker.js built');
  copyFileSync(`${ROOT}test/fixtures/data/darcy_v5.mat`, `${ws.path}/darcy.mat`);
  const ref = service.listFiles('workspace', '').entries.find((e) => e.name === 'darcy.mat')!.ref!;
  const r = (await service.call('datasets.inspect', { file: ref })) as { variables: { name: string }[] };
  assert.deepEqual(r.variables.map((v) => v.name).sort(), ['coeff', 'sol']);
});

test('the bundled engine decodes a checkpoint in its checkpoint worker, shipped beside the bundle', { timeout: 120_000 }, async () => {
  assert.ok(existsSync(`${ROOT}dist/engine/checkpoint-worker.js`), 'dist/engine/checkpoint-worker.js built');
  for (const f of ['release-1d-standard.pt', 'dag-args.pt']) copyFileSync(`${ROOT}test/fixtures/pt/${f}`, `${ws.path}/${f}`);
  const ref = (name: string) => service.listFiles('workspace', '').entries.find((e) => e.name === name)!.ref!;
  await assert.rejects(service.call('runs.importCheckpoint', { file: ref('dag-args.pt') }), /dag-args\.pt: field 'args' holds more than 100000 values/);
  const r = (await service.call('runs.importCheckpoint', { file: ref('release-1d-standard.pt') })) as { runId: string };
  assert.ok(r.runId);
});
