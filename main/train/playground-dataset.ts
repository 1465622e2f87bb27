// "Keep what you found": a Playground input with its truth as a one-sample dataset in the
// workspace's store, encoded with the run's checkpoint normalizer and the pipeline's coordinate
// channels, so its val_x is exactly what the run's model was given (and what `lino predict` reads).
// The one sample is both the train and the val split: a run trains on it, a view evaluates it.
import { DatasetStore } from '../data/dataset-store';
import type { DatasetManifest, PreparedDataset, PreparedSplit } from '../data/dataset';
import { ndarray } from '../data/ndarray';
import { freeName } from '../util/free-name';
import { assertEncodedFinite, encodeInput } from './playground-predict';
import type { PlaygroundRun } from './playground-run';
import type { PlaygroundFields } from '../runs/playground-records';

function rangeOf(channels: number[][]) {
  let min = Infinity, max = -Infinity;
  for (const c of channels) for (const v of c) { min = Math.min(min, v); max = Math.max(max, v); }
  return { min, max };
}

/** Writes the dataset under a free id from `name` (an existing dataset is never replaced); answers its id. */
export function savePlaygroundSample(workspace: string, run: PlaygroundRun, input: PlaygroundFields, truth: PlaygroundFields, name: string): string {
  const store = new DatasetStore(workspace);
  const id = freeName(store.root, name);
  const n = run.normalizer;
  const k = n.applied ? n.y.std + n.eps : 1, m = n.applied ? n.y.mean : 0;
  const P = truth.grid.reduce((a, b) => a * b, 1);
  const O = truth.channels.length;
  const y = new Float32Array(P * O);
  for (let p = 0; p < P; p++) for (let c = 0; c < O; c++) y[p * O + c] = (truth.channels[c]![p]! - m) / k;
  assertEncodedFinite(y, O, truth, 'truth', 'y');
  const x = encodeInput(run, input);
  const split = (): PreparedSplit => ({ x: ndarray(x.data, x.shape, 'float32'), y: ndarray(y, [1, ...truth.grid, O], 'float32'), indices: Int32Array.of(0) });
  const empty: PreparedSplit = { x: ndarray(new Float32Array(0), [0, ...x.shape.slice(1)], 'float32'), y: ndarray(new Float32Array(0), [0, ...truth.grid, O], 'float32'), indices: new Int32Array(0) };
  const src = run.manifest as Partial<DatasetManifest>;
  const xNames = src.xChannels ?? Array.from({ length: run.inChannels + run.coordChannels }, (_, c) => `x${c}`);
  const manifest: DatasetManifest = {
    format: 'lino-dataset', version: 1, id, createdAt: new Date().toISOString(),
    benchmark: (src.benchmark ?? 'custom') as DatasetManifest['benchmark'],
    source: { kind: 'arrays', name: `playground input of run ${run.runId}`, input: xNames.slice(0, run.inChannels), target: (src.yChannels ?? ['y']).join(',') },
    parameters: { benchmark: (src.benchmark ?? 'custom') as DatasetManifest['benchmark'], split: { train: 1, val: 1, test: 0 }, resolution: [...input.grid], coords: run.coordChannels > 0, normalize: n.applied, ...(run.autoregressive ? { ns: { ...src.parameters?.ns, ...run.autoregressive } } : {}) },
    sourceSamples: 1,
    counts: { train: 1, val: 1, test: 0 },
    grid: [...input.grid],
    xChannels: xNames,
    yChannels: src.yChannels ?? Array.from({ length: O }, (_, c) => `y${c}`),
    coordChannels: run.coordChannels,
    normalization: {
      x: { mean: n.x.mean, std: n.x.std, count: P * run.inChannels, ...rangeOf(input.channels) },
      y: { mean: n.y.mean, std: n.y.std, count: P * O, ...rangeOf(truth.channels) },
      eps: n.eps, applied: n.applied, scope: `run ${run.runId}'s checkpoint normalizer`,
    },
    warnings: [`one Playground sample of run ${run.runId} (${run.kind}), in both the train and the val split; the truth is the built-in ${src.benchmark ?? ''} solver's at this grid`],
  };
  const ds: PreparedDataset = { manifest, train: split(), val: split(), test: empty };
  store.save(ds);
  return id;
}
