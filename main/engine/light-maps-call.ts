// runs.lightMaps: one sample's light maps of a stored LiNO run, answered directly by the
// engine (one forward pass of one sample is short), as plain arrays for the Light maps view.
import { join } from 'node:path';
import { ApiError } from '../api/api-error';
import { type LightMapsResult } from '../model/lino/light-map-records';
import { RunStore } from '../runs/run-store';
import { parseRunConfig } from '../train/runner';
import { loadRunForLightMaps } from '../train/light-maps-run';
import { gatherRows, type TrainSplit } from '../train/data';
import { lightMaps } from '../model/lino/light-maps';
import { initBackend, tf } from './tf-runtime';

export interface LightMapsParams {
  workspace: string;
  id: string;
  checkpoint: 'best' | 'last';
  split: 'train' | 'val' | 'test';
  sample: number;
  query?: number[];
}

const arr = (a: ArrayLike<number> | undefined) => (a ? Array.from(a) : undefined);

/** Channel c of a channels-last [1, ...grid, C] array, row-major over the grid. */
function channel(data: Float32Array, channels: number, c: number): number[] {
  const out: number[] = [];
  for (let i = c; i < data.length; i += channels) out.push(data[i]!);
  return out;
}

/**
 * A curvilinear-mesh sample (the airfoil's C-grid): its input channels 0 and 1 are the nodes'
 * physical x and y, as stored, so the view draws each map where its node is.
 */
function meshOf(benchmark: string, grid: number[], raw: TrainSplit, sample: number, inputChannels: number) {
  if (benchmark !== 'airfoil' || grid.length !== 2 || inputChannels < 2) return undefined;
  const row = gatherRows(raw.x, [sample]);
  const C = row.shape[row.shape.length - 1]!;
  return { x: channel(row.data, C, 0), y: channel(row.data, C, 1) };
}

export async function lightMapsCall(p: LightMapsParams): Promise<LightMapsResult> {
  const run = new RunStore(join(p.workspace, 'runs')).open(p.id);
  const kind = parseRunConfig(run.readConfig(), run.configPath).model.kind;
  // checked before any checkpoint or data is read: a model kind without the mechanisms says so
  if (kind !== 'lino') throw new ApiError(`run '${p.id}' is a '${kind}' model: it has no light maps (they exist only for lino models)`, 'invalid_params', { field: 'id' });
  await initBackend();
  const r = await loadRunForLightMaps(run, p.checkpoint, p.split);
  let x: tf.Tensor | undefined;
  try {
    const S = r.split.x.shape[0]!;
    if (p.sample >= S) throw new ApiError(`runs.lightMaps: invalid parameter 'sample': ${p.sample} asked for, the '${p.split}' split has ${S} samples (0..${S - 1})`, 'invalid_params', { field: 'sample' });
    const row = gatherRows(r.split.x, [p.sample]);
    const grid = row.shape.slice(1, -1);
    if (p.query && (p.query.length !== grid.length || p.query.some((q, a) => q >= grid[a]!))) {
      throw new ApiError(`runs.lightMaps: invalid parameter 'query': [${p.query.join(', ')}] is not a point of the grid [${grid.join(', ')}]`, 'invalid_params', { field: 'query' });
    }
    const C = row.shape[row.shape.length - 1]!;
    const mesh = meshOf(r.benchmark, grid, r.raw, p.sample, C - r.coordChannels);
    x = tf.tensor(row.data, row.shape);
    const maps = await lightMaps(r.model, x, p.query ? { query: p.query } : {});
    maps.y.dispose();
    const K = maps.gates.length / maps.blocks.length;
    return {
      runId: p.id, checkpoint: p.checkpoint, split: p.split, sample: p.sample, samples: S, grid,
      benchmark: r.benchmark,
      // the model's input as it sees it (normalized), coordinate channels left out
      input: Array.from({ length: C - r.coordChannels }, (_, c) => channel(row.data, C, c)),
      ...(p.query ? { query: p.query } : {}),
      ...(mesh ? { mesh } : {}),
      blocks: maps.blocks.map((m, b) => ({
        components: m.components,
        gates: Array.from(maps.gates.subarray(b * K, (b + 1) * K)),
        reflectionActivity: arr(m.reflectionActivity),
        refractionActivity: arr(m.refractionActivity),
        contribution: Object.fromEntries(m.components.map((k) => [k, Array.from(m.contribution[k]!)])),
        dominant: Array.from(m.dominant),
        latentNorm: Array.from(m.latentNorm),
        ...(m.kernel ? { kernel: { row: Array.from(m.kernel.row), ...(m.kernel.local ? { local: m.kernel.local } : {}) } } : {}),
      })),
    };
  } finally {
    x?.dispose();
    r.model.dispose();
  }
}
