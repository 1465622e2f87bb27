// `lino predict` on a Playground input saved as a dataset (val_x, encoded as the run's model takes
// it), scored against the saved truth (val_y) in physical units: the relL2 the Playground shows
// must equal it. Shared by the Playground's integration and e2e tests.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { DatasetStore } from '../../main/data/dataset-store';
import { readInputF32 } from '../../main/cli/operator-files';
import { RunStore } from '../../main/runs/run-store';
import { weightsPath } from '../../main/runs/checkpoint';
import { parseRunConfig } from '../../main/train/runner';
import { loadTrainData } from '../../main/train/data-source';
import { modelConfigFor } from '../../main/train/trainer';
import { ROOT } from './host';

export interface SavedPrediction {
  relL2: number;
  /** The saved truth, normalized, and the target normalizer (physical = v * k + mu). */
  ref: Float32Array;
  k: number;
  mu: number;
}

export async function predictSavedInput(workspace: string, runId: string, datasetId: string, loadOpts: Parameters<typeof loadTrainData>[1] = {}): Promise<SavedPrediction> {
  const dir = join(workspace, 'datasets', datasetId);
  const run = new RunStore(join(workspace, 'runs')).open(runId);
  const cfg = parseRunConfig(run.readConfig(), run.configPath);
  writeFileSync(join(dir, '..', 'model.json'), JSON.stringify({ kind: 'lino', ...modelConfigFor(cfg, await loadTrainData(cfg.data, loadOpts)) }));
  const r = spawnSync(process.execPath, [join(ROOT, 'bin/lino.mjs'), 'predict', '--config', join(dir, '..', 'model.json'), '--weights', weightsPath(run.dir, 'best')!, '--input', join(dir, 'val_x.npy'), '--out', join(dir, '..', 'y.npy'), '--backend', 'cpu'], { encoding: 'utf8', cwd: ROOT });
  assert.equal(r.status, 0, r.stderr);
  const m = new DatasetStore(workspace).manifest(datasetId);
  const k = m.normalization.y.std + m.normalization.eps, mu = m.normalization.y.mean;
  const y = readInputF32(join(dir, '..', 'y.npy')).data, ref = readInputF32(join(dir, 'val_y.npy')).data;
  let num = 0, den = 0;
  for (let i = 0; i < y.length; i++) { const t = ref[i]! * k + mu; num += (y[i]! * k + mu - t) ** 2; den += t * t; }
  return { relL2: Math.sqrt(num) / (Math.sqrt(den) + 1e-12), ref: ref as Float32Array, k, mu };
}
