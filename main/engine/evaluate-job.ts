// The 'evaluate' job (runs.evaluate): a run's checkpoint on a split, at its grid and at transfer
// resolutions, optionally with fields and exported predictions. Runs in the evaluation lane's
// worker thread (job-worker.ts), so it never waits behind training nor stalls the engine thread.
import { join } from 'node:path';
import { RunStore } from '../runs/run-store';
import { evaluateRun } from '../train/evaluate-run';
import { evaluationAsk, saveEvaluation } from '../runs/evaluation-cache';
import type { JobContext } from './jobs';
import type { JobParams } from './job-params';

export const evaluateLabel = (p: JobParams['evaluate']) => `Evaluate run ${p.runId} (${p.checkpoint})`;

export async function runEvaluate(p: JobParams['evaluate'], ctx: JobContext): Promise<unknown> {
  const workspace = p.workspace;
  const run = new RunStore(join(workspace, 'runs')).open(p.runId);
  const result = await evaluateRun(run, {
    checkpoint: p.checkpoint,
    split: p.split,
    resolutions: p.resolutions,
    ...(p.source ? { source: p.source } : {}),
    ...(p.rolloutSteps !== undefined ? { rolloutSteps: p.rolloutSteps } : {}),
    ...(p.exportPredictions ? { exportDir: join(workspace, 'exports'), exportFormat: p.exportFormat } : {}),
    ...(p.fields ? { fields: true } : {}),
    ...(p.indices.length ? { indices: p.indices } : {}),
    ...(p.diagnostics ? { diagnostics: true } : {}),
    signal: ctx.signal,
    onProgress: (f, m) => ctx.progress(f, m),
  });
  // kept for the views (runs.evaluation): a cache, so failing to write it fails nothing
  try {
    saveEvaluation(run.dir, evaluationAsk(p), result);
  } catch {
    /* the result still reaches the view through the job */
  }
  return result;
}
