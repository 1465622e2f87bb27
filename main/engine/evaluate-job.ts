// The 'evaluate' job (runs.evaluate): a run's checkpoint on a split, at its grid and at transfer
// resolutions, optionally with fields and exported predictions. Runs in the evaluation lane's
// worker thread (job-worker.ts), so it never waits behind training nor stalls the engine thread.
import { join } from 'node:path';
import { RunStore } from '../runs/run-store';
import { evaluateRun } from '../train/evaluate-run';
import { evaluationAsk, saveEvaluation } from '../runs/evaluation-cache';
import type { JobContext } from './jobs';

export const evaluateLabel = (p: Record<string, unknown>) => `Evaluate run ${String(p.runId)} (${String(p.checkpoint ?? 'best')})`;

export async function runEvaluate(p: Record<string, unknown>, ctx: JobContext): Promise<unknown> {
  const workspace = String(p.workspace);
  const run = new RunStore(join(workspace, 'runs')).open(String(p.runId));
  const result = await evaluateRun(run, {
    checkpoint: (p.checkpoint as 'best' | 'last') ?? 'best',
    split: (p.split as 'train' | 'val' | 'test') ?? 'val',
    resolutions: (p.resolutions as number[]) ?? [],
    ...(p.rolloutSteps !== undefined ? { rolloutSteps: Number(p.rolloutSteps) } : {}),
    ...(p.exportPredictions ? { exportDir: join(workspace, 'exports'), exportFormat: p.exportFormat === 'mat' ? 'mat' as const : 'npy' as const } : {}),
    ...(p.fields ? { fields: true } : {}),
    ...(Array.isArray(p.indices) && p.indices.length ? { indices: p.indices as number[] } : {}),
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
