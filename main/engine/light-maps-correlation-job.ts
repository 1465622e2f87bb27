// runs.lightMapsCorrelation: the light-map correlation table of `lino lightmaps --correlate` as a
// job (a forward pass per batch over a whole split takes a while): progress per batch, ETA, cancel.
// The run's model kind and data are checked when the call arrives, so a wrong run is refused at
// once naming the field, not as a failed job.
import { join } from 'node:path';
import { ApiError } from '../api/api-error';
import { type LightMapsCorrelationResult } from '../model/lino/light-map-records';
import { RunStore, type RunHandle } from '../runs/run-store';
import { parseRunConfig } from '../train/runner';
import { lightMapCorrelationRun } from '../train/light-map-correlation-run';
import type { JobContext } from './jobs';
import type { JobParams } from './job-params';
import { initBackend } from './tf-runtime';

export function lightMapsCorrelationLabel(p: JobParams['lightmaps-correlation']): string {
  return `Light-map correlation of run ${p.id} (${p.split})`;
}

/** The run, refused when it is not a LiNO model or its config names data other than Darcy. */
export function checkCorrelationRun(p: { workspace: string; id: string }): RunHandle {
  const run = new RunStore(join(p.workspace, 'runs')).open(p.id);
  const cfg = parseRunConfig(run.readConfig(), run.configPath);
  if (cfg.model.kind !== 'lino') throw new ApiError(`run '${p.id}' is a '${cfg.model.kind}' model: it has no light maps (they exist only for lino models)`, 'invalid_params', { field: 'id' });
  // generated and synthetic data say what they are in the config; a stored dataset's or a file's
  // benchmark is in its manifest, checked in the job (correlateSplit)
  const data = cfg.data as { kind: string; benchmark?: string };
  const what = data.kind === 'generate' ? { field: 'data.benchmark', value: data.benchmark } : data.kind === 'synthetic' ? { field: 'data.kind', value: data.kind } : null;
  if (what && what.value !== 'darcy') {
    throw new ApiError(`run '${p.id}': field '${what.field}' is '${what.value}': the correlation with |grad a| needs Darcy data (its coefficient a is input channel 0)`, 'invalid_params', { field: 'id' });
  }
  return run;
}

export async function runLightMapsCorrelation(p: JobParams['lightmaps-correlation'], ctx: JobContext): Promise<LightMapsCorrelationResult> {
  const run = checkCorrelationRun(p);
  await initBackend();
  ctx.progress(0, 'loading the checkpoint and data');
  const t = await lightMapCorrelationRun(run, p.checkpoint, p.split, {
    maxSamples: p.maxSamples,
    signal: ctx.signal,
    onProgress: (done, total) => ctx.progress(done / total, `${done} of ${total} samples`),
  });
  return { runId: p.id, checkpoint: p.checkpoint, split: p.split, ...t };
}
