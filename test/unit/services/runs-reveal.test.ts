// runs.reveal: Electron opens a run's folder through the host's openFolder; browser mode (no such
// host ability) answers the path only; an unknown run is refused naming the field.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { ApiError } from '../../../main/api/contract';
import { WorkbenchService } from '../../../main/services/workbench-service';
import { RunStore } from '../../../main/runs/run-store';
import { isolateConfig, tempDir } from '../../helpers/env';

const restore = isolateConfig();
const ws = tempDir('lino-ws-');
after(() => {
  ws.cleanup();
  restore();
});
const noEngine = () => {
  throw new Error('runs.reveal must not reach the engine');
};

test('runs.reveal: the path in browser mode, the file manager in Electron, not_found for an unknown run', async () => {
  const browser = new WorkbenchService({ host: 'browser', launcher: noEngine as never, workspace: ws.path });
  await browser.call('workspace.get', {});
  const run = new RunStore(join(ws.path, 'runs')).create({ name: 'reveal me' }, 'reveal-me');
  assert.deepEqual(await browser.call('runs.reveal', { id: run.id }), { path: run.dir, opened: false });

  const asked: string[] = [];
  const electron = new WorkbenchService({
    host: 'electron',
    launcher: noEngine as never,
    workspace: ws.path,
    dialogs: { pickOpen: async () => null, openFolder: async (p) => (asked.push(p), true) },
  });
  assert.deepEqual(await electron.call('runs.reveal', { id: run.id }), { path: run.dir, opened: true });
  assert.deepEqual(asked, [run.dir]);

  await assert.rejects(browser.call('runs.reveal', { id: 'no-such-run' }), (e: unknown) => e instanceof ApiError && e.code === 'not_found' && e.details.field === 'id');
});
