// The 'torch' backend's interpreter as a user setting (settings.python, the Workspace view's field):
// a missing interpreter is reported by train.torch and fails a torch run with that reason (the run
// failed, not stuck queued); pointing the setting at a Python with torch makes it available. The
// setting's trust rule (main/util/python-path.ts): each refusal names the field and what was expected.
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { TorchReport, WorkbenchEvent } from '../../../main/api/contract';
import { engineService } from '../../helpers/engine-service';
import { waitFor } from '../../helpers/wait';

const PY = '/usr/bin/python3';
const skip = spawnSync(PY, ['-c', 'import torch, numpy']).status !== 0 ? `${PY} cannot import torch and numpy` : false;
delete process.env.LINO_PYTHON; // the setting decides (the forked engine inherits this environment)
const { service, events, workspace } = engineService();
before(async () => {
  await service.call('engine.info', {});
});

test('settings.python: refused unless an absolute, executable Python interpreter outside the workspace and temp folders', async () => {
  const refusal = async (python: string, why: RegExp) => {
    await assert.rejects(service.call('settings.python', { python }), (e: Error & { code?: string; field?: string }) => {
      assert.equal(e.code, 'invalid_params');
      assert.match(e.message, new RegExp(`^settings\\.python: field 'python': '${python.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}' `));
      assert.match(e.message, why);
      assert.match(e.message, /expected the absolute path of an existing, executable Python interpreter/);
      return true;
    });
  };
  await refusal('python3', /is not an absolute path/);
  await refusal('/bin/sh', /is named 'sh', not like a Python interpreter/);
  await refusal('/nonexistent/python3', /does not exist/);
  // a script a client could have written into the workspace (an export, a dataset): never run
  const planted = join(workspace, 'exports', 'python3');
  mkdirSync(dirname(planted), { recursive: true });
  writeFileSync(planted, '#!/bin/sh\necho planted\n', { mode: 0o755 });
  await refusal(planted, /lies in .*a folder the workbench's API or any process can write to/);
  assert.deepEqual(await service.call('settings.python', {}), { python: null, envOverride: null }, 'nothing was saved');
});

test('a settings file edited by hand is checked again before the probe runs it', { skip: process.platform === 'win32' ? 'POSIX file modes' : false }, async () => {
  const planted = join(workspace, 'python3');
  writeFileSync(planted, '#!/bin/sh\necho planted\n', { mode: 0o755 });
  writeFileSync(join(process.env.LINO_CONFIG_DIR!, 'settings.json'), JSON.stringify({ python: planted }));
  const r = (await service.call('train.torch', { refresh: true })) as TorchReport;
  assert.equal(r.ok, false);
  assert.match(r.problem!, /^the Python interpreter setting \(settings\.python\): '.*' lies in /);
  writeFileSync(join(process.env.LINO_CONFIG_DIR!, 'settings.json'), '{}');
});

test('settings.python: a missing interpreter is named and fails a torch run; a Python with torch is found', { skip, timeout: 120_000 }, async () => {
  // a setting saved before the rule, or edited by hand: the probe names the missing file
  writeFileSync(join(process.env.LINO_CONFIG_DIR!, 'settings.json'), JSON.stringify({ python: '/nonexistent/python3' }));
  assert.deepEqual(await service.call('settings.python', {}), { python: '/nonexistent/python3', envOverride: null });
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
