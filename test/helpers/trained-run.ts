// Train-and-wait through the service both hosts use: one loop for the integration tests'
// engineService().trained and the browser tests' setups.
import assert from 'node:assert/strict';
import type { RunSummary } from '../../main/api/contract';
import type { WorkbenchService } from '../../main/services/workbench-service';

/** Starts a run with train.start and waits until it has ended (done, failed or stopped); answers its summary. */
export async function trainedRun(service: WorkbenchService, config: Record<string, unknown>, ms = 100_000): Promise<RunSummary> {
  const { runId } = (await service.call('train.start', { config } as never)) as { runId: string };
  for (const t0 = Date.now(); ; await new Promise((r) => setTimeout(r, 100))) {
    const r = ((await service.call('runs.list', {})) as RunSummary[]).find((x) => x.id === runId);
    if (r && ['done', 'failed', 'stopped'].includes(r.state)) return r;
    if (Date.now() - t0 > ms) throw new Error(`run ${runId} (${String(config.name)}) did not finish training in ${ms} ms`);
  }
}

/** trainedRun that must end done (the reason shown otherwise); answers the run's id. */
export async function trainedId(service: WorkbenchService, config: Record<string, unknown>, ms = 120_000): Promise<string> {
  const r = await trainedRun(service, config, ms);
  assert.equal(r.state, 'done', `${String(config.name)}: ${r.reason ?? ''}`);
  return r.id;
}
