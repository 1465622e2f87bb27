// A stored run's model, checkpoint and one split's encoded inputs, for light maps:
// the same loading as evaluateRun (config.json, checkpoint weights, the run's data normalized with
// the checkpoint's training statistics).
import { join, resolve } from 'node:path';
import type { RunHandle } from '../runs/run-store';
import { loadCheckpoint, type CheckpointName } from '../runs/checkpoint';
import { loadStateDict } from '../runs/state-dict';
import { LinoOperator } from '../model/lino/operator';
import { parseRunConfig } from './runner';
import { modelFor } from './trainer';
import { loadTrainData } from './data-source';
import { reencode } from './evaluate-run';
import type { TrainSplit } from './data';

type Stats = { mean: number; std: number };

export interface RunForLightMaps {
  model: LinoOperator;
  /** The split's inputs and targets, encoded as the model was trained ([S, ...grid, C]). */
  split: TrainSplit;
  /** The same split as stored (not re-encoded): a mesh dataset's node coordinates come from it. */
  raw: TrainSplit;
  /** Input channels that are coordinates (the last ones); the coefficient is channel 0. */
  coordChannels: number;
  benchmark: string;
}

export async function loadRunForLightMaps(run: RunHandle, checkpoint: CheckpointName, splitName: 'train' | 'val' | 'test'): Promise<RunForLightMaps> {
  const cfg = parseRunConfig(run.readConfig(), run.configPath);
  const ck = loadCheckpoint(run.dir, checkpoint);
  if (!ck) throw new Error(`${run.dir}: no checkpoints/${checkpoint} (the run has not finished an epoch)`);
  const trainStats = ck.state.normalizer as { x: Stats; y: Stats; eps: number; applied: boolean };
  const data = await loadTrainData(cfg.data, { workspace: resolve(run.dir, '..', '..') });
  const model = modelFor(cfg, data);
  if (!(model instanceof LinoOperator)) {
    model.dispose();
    throw new Error(`${run.configPath}: field 'model.kind' is '${model.kind}': light maps exist only for lino models`);
  }
  const weights = { tensors: new Map([...ck.weights].map(([k, e]) => [k, { dtype: 'F32' as const, shape: [...e.shape], bytes: new Uint8Array(e.data.buffer, e.data.byteOffset, e.data.byteLength) }])), metadata: {} };
  loadStateDict(model, weights, join(run.dir, 'checkpoints', checkpoint, 'weights.safetensors'));
  const raw = data[splitName];
  if (!raw || raw.x.shape[0] === 0) {
    model.dispose();
    throw new Error(`${run.dir}: the '${splitName}' split of this run's data is empty`);
  }
  const own = data.manifest.normalization;
  const split = own.applied && trainStats.applied ? reencode(raw, data.manifest.coordChannels, own, trainStats) : raw;
  const spec = cfg.data as { benchmark?: string; kind: string };
  return { model, split, raw, coordChannels: data.manifest.coordChannels, benchmark: data.manifest.benchmark ?? spec.benchmark ?? spec.kind };
}
