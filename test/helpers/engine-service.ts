// One setup for tests that drive the real engine process through the service both hosts use:
// isolated config and workspace, every event recorded, everything stopped after the file's tests.
import { after } from 'node:test';
import { WorkbenchService, type WorkbenchServiceOptions } from '../../main/services/workbench-service';
import { testLauncher } from './test-launcher';
import type { JobSummary, RunSummary, WorkbenchEvent } from '../../main/api/contract';
import { tempDir, isolateConfig } from './env';
import { sharedRun, trainedRun } from './trained-run';

export function engineService(opts: Partial<WorkbenchServiceOptions> = {}) {
  const restore = isolateConfig();
  const ws = tempDir('lino-ws-');
  const service = new WorkbenchService({ host: 'browser', launcher: testLauncher(), workspace: ws.path, ...opts });
  const events: WorkbenchEvent[] = [];
  service.onEvent((e) => events.push(e));
  after(async () => {
    await service.dispose();
    ws.cleanup();
    restore();
  });
  /** The job's latest state from the events. */
  const lastJob = (id: string) => [...events].reverse().find((e): e is Extract<WorkbenchEvent, { type: 'job' }> => e.type === 'job' && e.job.id === id)?.job;
  /** Waits until the job has ended (done, failed or cancelled) and answers its summary. */
  async function settled(id: string, ms = 60_000): Promise<JobSummary> {
    const t0 = Date.now();
    for (;;) {
      const j = lastJob(id);
      if (j && ['done', 'failed', 'cancelled'].includes(j.state)) return j;
      if (Date.now() - t0 > ms) throw new Error(`job ${id} did not finish in ${ms} ms (last: ${JSON.stringify(j)})`);
      await new Promise((r) => setTimeout(r, 20));
    }
  }
  const trained = (config: Record<string, unknown>, ms = 100_000): Promise<RunSummary> => trainedRun(service, config, ms);
  /** A finished run of `config` trained once per test invocation, copied into this workspace (trained-run.ts). */
  const shared = (config: Record<string, unknown>, ms = 120_000): Promise<RunSummary> => sharedRun(service, ws.path, config, ms);
  return { service, events, workspace: ws.path, lastJob, settled, trained, shared };
}
