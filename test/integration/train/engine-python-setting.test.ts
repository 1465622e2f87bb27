// The 'torch' backend's interpreter as a user setting (settings.python, the Workspace view's field):
// a missing interpreter is reported by train.torch and fails a torch run with that reason (the run
// failed, not stuck queued); pointing the setting at a Python with torch makes it available.
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import type { TorchReport, WorkbenchEvent } from '../../../main/api/contract';
import { engineService } from '../../helpers/engine-service';
import { waitFor } from '../../helpers/wait';

const PY = '/usr/bin/python3';
const skip = spawnSync(PY, ['-c', 'import torch, numpy']).status !== 0 ? `${PY} cannot import torch and numpy` : false;
delete process.env.LINO_PYTHON; // the setting decides (the forked engine inherits this environment)
const { service, events } = engineService();
before(async () => {
  await service.call('engine.info', {});
});

test('settings.python: a missing interpreter is named and fails a torch run; a Python with torch is found', { skip, timeout: 120_000 }, async () => {
  assert.deepEqual(await service.call('settings.python', { python: '/nonexistent/python3' }), { python: '/nonexistent/python3', envOverride: null });
  const bad = (await service.call('train.torch', { refresh: true })) as TorchReport;
  assert.equal(bad.ok, false);
  assert.match(bad.problem!, /Python not found: '\/nonexistent\/python3'/);
  const from = events.length;
  const { runId } = (await service.call('train.start', { config: { name: 'no python', model: { width: 4, depth: 1 }, data: { kind: 'synthetic', grid: [6, 6], train: 4, val: 2 }, epochs: 1, batchSize: 2, backend: 'torch', torch: { device: 'cpu' } } })) as { runId: string };
  const end = await waitFor(() => events.slice(from).find((e): e is Extract<WorkbenchEvent, { type: 'run' }> => e.type === 'run' && e.runId === runId && ['failed', 'done'].includes(e.state)), 60_000, 'the run to end');
  assert.equal(end.state, 'failed');
  assert.match(end.reason!, /backend torch: Python not found.*LINO_PYTHON/);
  await service.call('settings.python', { python: PY });
  const good = (await service.call('train.torch', { refresh: true })) as TorchReport;
  assert.equal(good.ok, true, good.problem);
  assert.equal(good.python, PY);
  assert.deepEqual(await service.call('settings.python', { python: null }), { python: null, envOverride: null });
});
