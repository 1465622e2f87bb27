// The light-map correlation table of a stored LiNO run: per block and map, Pearson r
// with the coefficient interface indicator |grad a| over a split, pooled and per sample. The one
// loop behind `lino lightmaps --correlate` and the app's 'lightmaps-correlation' job.
import * as tf from '../ops/tf';
import type { RunHandle } from '../runs/run-store';
import type { CheckpointName } from '../runs/checkpoint';
import { lightMaps } from '../model/lino/light-maps';
import { CORRELATED_MAPS, LightMapCorrelation, type CorrelatedMap } from '../model/lino/light-map-correlation';
import { loadRunForLightMaps, type RunForLightMaps } from './light-maps-run';

/** Samples per forward pass (the CLI's and the job's, so both sum in the same order). */
export const CORRELATION_BATCH = 8;

export interface CorrelationOptions {
  /** The first maxSamples samples of the split (all when absent). */
  maxSamples?: number;
  batchSize?: number;
  signal?: AbortSignal;
  /** After each batch: samples done of total. */
  onProgress?(done: number, total: number): void;
}

/** One map of one block; r is null where undefined (a constant map or indicator). */
export interface CorrelationCell {
  map: CorrelatedMap;
  pooled: number | null;
  mean: number | null;
  std: number | null;
  /** Samples whose own r is defined (those the mean and std are over). */
  n: number;
}

export interface CorrelationTable {
  /** Samples correlated. */
  samples: number;
  /** Per block, the maps it has (a switched-off branch has none), in CORRELATED_MAPS order. */
  blocks: { block: number; maps: CorrelationCell[] }[];
}

const num = (v: number | undefined) => (v === undefined || Number.isNaN(v) ? null : v);

/**
 * The table over a loaded run's split. Refuses data whose coefficient is not input channel 0
 * (only Darcy's is); `source` names the run's config in that message.
 */
export async function correlateSplit(r: RunForLightMaps, source: string, opts: CorrelationOptions = {}): Promise<CorrelationTable> {
  if (r.benchmark !== 'darcy') {
    throw new Error(`${source}: field 'data.benchmark' is '${r.benchmark}': the correlation with |grad a| needs Darcy data (its coefficient a is input channel 0)`);
  }
  const x = r.split.x;
  const S = Math.min(x.shape[0]!, opts.maxSamples ?? Infinity);
  const data = x.data instanceof Float32Array ? x.data : Float32Array.from(x.data);
  const per = data.length / x.shape[0]!;
  const bs = opts.batchSize ?? CORRELATION_BATCH;
  const acc = new LightMapCorrelation();
  for (let s = 0; s < S; s += bs) {
    if (opts.signal?.aborted) throw new Error('cancelled');
    const n = Math.min(bs, S - s);
    const shape = [n, ...x.shape.slice(1)];
    const xb = data.slice(s * per, (s + n) * per);
    const t = tf.tensor(xb, shape);
    try {
      const maps = await lightMaps(r.model, t);
      maps.y.dispose();
      acc.add(maps, xb, shape, 0);
    } finally {
      t.dispose();
    }
    opts.onProgress?.(s + n, S);
  }
  const rows = acc.table();
  return {
    samples: acc.samples,
    blocks: rows.map((row, b) => ({
      block: b,
      maps: CORRELATED_MAPS.filter((k) => row.pooled[k] !== undefined).map((k) => ({
        map: k,
        pooled: num(row.pooled[k]),
        mean: num(row.mean[k]),
        std: num(row.std[k]),
        n: acc.perSample[b]!.get(k)!.filter((v) => !Number.isNaN(v)).length,
      })),
    })),
  };
}

/** Loads the run's checkpoint and split, computes the table, frees the model. */
export async function lightMapCorrelationRun(run: RunHandle, checkpoint: CheckpointName, split: 'train' | 'val' | 'test', opts: CorrelationOptions = {}): Promise<CorrelationTable> {
  const r = await loadRunForLightMaps(run, checkpoint, split);
  try {
    return await correlateSplit(r, run.configPath, opts);
  } finally {
    r.model.dispose();
  }
}
