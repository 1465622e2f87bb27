// cost.benchmark: `lino cost` as a job in a worker of the analysis lane (the solves and the timed
// forward passes take seconds to minutes): progress per stage, cancel between stages.
import { join } from 'node:path';
import { RunStore } from '../runs/run-store';
import { loadPlaygroundRun, type PlaygroundRun } from '../train/playground-run';
import { benchmarkCost, type CostReport } from '../train/diagnostics/cost';
import type { JobContext } from './jobs';
import type { JobParams } from './job-params';

export const costLabel = (p: JobParams['cost']) => `Accuracy against cost (${p.benchmark}${p.runs.length ? `, ${p.runs.length} run${p.runs.length > 1 ? 's' : ''}` : ''})`;

/** Every run named exists (RunStore.open refuses an unknown or hostile id, naming it). */
export function checkCostRuns(p: { workspace: string; runs: string[] }): void {
  const store = new RunStore(join(p.workspace, 'runs'));
  for (const id of p.runs) store.open(id);
}

export async function runCost(p: JobParams['cost'], ctx: JobContext): Promise<CostReport> {
  const store = new RunStore(join(p.workspace, 'runs'));
  const runs: PlaygroundRun[] = [];
  try {
    ctx.progress(0, 'loading the runs');
    for (const id of p.runs) runs.push(await loadPlaygroundRun(store.open(id), p.checkpoint));
    const stages = p.resolutions.length + 1 + 2 * runs.length;
    let done = 0;
    return await benchmarkCost(p.benchmark, {
      resolutions: p.resolutions, samples: p.samples, runs, signal: ctx.signal,
      ...(p.batch !== undefined ? { batch: p.batch } : {}),
      onProgress: (m) => ctx.progress(Math.min(0.99, done++ / stages), m),
    });
  } finally {
    for (const r of runs) r.model.dispose();
  }
}
