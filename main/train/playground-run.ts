// A stored run made ready for the Playground: its model with a checkpoint's weights, the
// checkpoint's normalizer, its data's layout (grid, coordinate channels, benchmark) and what its
// training inputs look like (for the out-of-distribution measure). Loaded once per run and
// checkpoint version and kept: a painted input is then one encode, one forward pass, one decode.
import { join, resolve } from 'node:path';
import type { RunHandle } from '../runs/run-store';
import { loadCheckpoint, type CheckpointName } from '../runs/checkpoint';
import { loadStateDict } from '../runs/state-dict';
import type { NeuralOperator } from '../model/types';
import { parseRunConfig } from './runner';
import { modelFor } from './trainer';
import { loadTrainData } from './data-source';
import { autoregressiveSpec, type TrainData, type TrainSplit } from './data';
import { predictBatched } from './predict-batched';
import { inputProfile, type TrainInputProfile } from './input-distance';

type Stats = { mean: number; std: number };


export interface PlaygroundRun {
  runId: string;
  kind: string;
  model: NeuralOperator;
  normalizer: { x: Stats; y: Stats; eps: number; applied: boolean };
  benchmark: string;
  grid: number[];
  coordChannels: number;
  /** Physical input channels and target channels the model takes and gives. */
  inChannels: number;
  outChannels: number;
  /** The data manifest as loaded (channel names, pipeline parameters) for a saved one-sample dataset. */
  manifest: TrainData['manifest'] & Record<string, unknown>;
  /** The run's generator parameters when its data was generated (nu, T, ...), else {}. */
  generator: Record<string, unknown>;
  /** Navier-Stokes: the model rolls out tOut frames from a history of tIn (null: one forward pass). */
  autoregressive: { tIn: number; tOut: number } | null;
  profile: TrainInputProfile;
  /** The data's val and test splits as loaded (encoded), for a dataset sample as the input. */
  splits: { val?: TrainSplit; test?: TrainSplit };
  /** The data's own normalizer (the one its stored splits are encoded with). */
  dataNormalization: TrainData['manifest']['normalization'];
}

/** The training inputs' physical channels, decoded with the data's own normalizer, sample by sample. */
function profileOf(data: TrainData): TrainInputProfile {
  const x = data.train.x;
  const C = x.shape[x.shape.length - 1]!;
  const phys = C - data.manifest.coordChannels;
  const per = x.data.length / x.shape[0]!;
  const own = data.manifest.normalization;
  const k = own.applied ? own.x.std + own.eps : 1, m = own.applied ? own.x.mean : 0;
  const values = new Float64Array((per / C) * phys);
  return inputProfile(x.shape[0]!, (s) => {
    let j = 0;
    for (let i = s * per; i < (s + 1) * per; i += C) for (let c = 0; c < phys; c++) values[j++] = x.data[i + c]! * k + m;
    return values;
  });
}

/** Loads a run for the Playground (an autoregressive one keeps its window: the Playground rolls it out). */
export async function loadPlaygroundRun(run: RunHandle, checkpoint: CheckpointName): Promise<PlaygroundRun> {
  const cfg = parseRunConfig(run.readConfig(), run.configPath);
  const ck = loadCheckpoint(run.dir, checkpoint);
  if (!ck) throw new Error(`${run.dir}: no checkpoints/${checkpoint} (the run has not finished an epoch)`);
  const data = await loadTrainData(cfg.data, { workspace: resolve(run.dir, '..', '..') });
  const model = modelFor(cfg, data);
  const weights = { tensors: new Map([...ck.weights].map(([k, e]) => [k, { dtype: 'F32' as const, shape: [...e.shape], bytes: new Uint8Array(e.data.buffer, e.data.byteOffset, e.data.byteLength) }])), metadata: {} };
  try {
    loadStateDict(model, weights, join(run.dir, 'checkpoints', checkpoint, 'weights.safetensors'));
  } catch (e) {
    model.dispose();
    throw e;
  }
  const spec = cfg.data as { benchmark?: string; kind: string };
  const manifest = data.manifest as PlaygroundRun['manifest'];
  const source = manifest.source as { generator?: { params?: Record<string, unknown> } } | undefined;
  const cin = data.train.x.shape[data.train.x.shape.length - 1]!;
  return {
    runId: run.id,
    kind: cfg.model.kind,
    model,
    normalizer: ck.state.normalizer as PlaygroundRun['normalizer'],
    benchmark: manifest.benchmark ?? spec.benchmark ?? spec.kind,
    grid: [...manifest.grid],
    coordChannels: manifest.coordChannels,
    inChannels: cin - manifest.coordChannels,
    outChannels: data.train.y.shape[data.train.y.shape.length - 1]!,
    manifest,
    generator: source?.generator?.params ?? {},
    autoregressive: autoregressiveSpec(data),
    profile: profileOf(data),
    splits: { val: data.val, test: data.test },
    dataNormalization: data.manifest.normalization,
  };
}

/**
 * One forward pass on a zero input at the run's own grid, its answer dropped: the first pass of a
 * freshly loaded model on wasm costs several steady ones (the heap grows, the matmuls pack their
 * weights, V8 tiers the kernels up; bench/playground.bench.ts measures it), so the load pays it
 * instead of the first painted input.
 */
export async function warmUpPlaygroundRun(run: PlaygroundRun): Promise<void> {
  const C = run.inChannels + run.coordChannels;
  const points = run.grid.reduce((a, b) => a * b, 1);
  await predictBatched(run.model, { data: new Float32Array(points * C), shape: [1, ...run.grid, C] }, run.outChannels, 1);
}
