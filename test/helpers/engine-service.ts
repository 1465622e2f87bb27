// One setup for tests that drive the real engine process through the service both hosts use:
// isolated config and workspace, every event recorded, everything stopped after the file's tests.
import { after } from 'node:test';
import { WorkbenchService, type WorkbenchServiceOptions } from '../../main/services/workbench-service';
import { forkLauncher } from '../../main/services/engine-launcher';
import type { WorkbenchEvent } from '../../main/api/contract';
import { tempDir, isolateConfig } from './env';

export function engineService(opts: Partial<WorkbenchServiceOptions> = {}) {
  const restore = isolateConfig();
  const ws = tempDir('lino-ws-');
  const service = new WorkbenchService({ host: 'browser', launcher: forkLauncher, workspace: ws.path, ...opts });
  const events: WorkbenchEvent[] = [];
  service.onEvent((e) => events.push(e));
  after(async () => {
    await service.dispose();
    ws.cleanup();
    restore();
  });
  return { service, events, workspace: ws.path };
}
