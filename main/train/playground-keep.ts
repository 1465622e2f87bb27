// What the Playground keeps and takes from the run's data: one of the run's own dataset
// samples as the input (decoded to physical units, with its stored truth), the shown arrays as .npy
// files in a new exports/ folder, and a sample appended to an existing workspace dataset. Appending
// never overwrites: the grown split is written to new files, the manifest switched to them in one
// atomic write, and only then are the old files removed; a dataset of another benchmark, grid or
// channel layout, or one a run trained on, is refused naming the field.
import { mkdirSync, renameSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { DatasetStore, assertStorable, contentHash } from '../data/dataset-store';
import type { DatasetManifest } from '../data/dataset';
import { ndarray, type NdArray } from '../data/ndarray';
import { encodeNpy, writeNpy } from '../data/formats/npy';
import { writeFileAtomic } from '../util/atomic-file';
import { removeTemp } from '../util/remove-tree';
import { firstNonFloat32 } from '../util/float32';
import { freeName } from '../util/free-name';
import { gatherRows } from './data';
import { gridCoords } from '../data/stages/coords';
import { PlaygroundInputError, assertEncodedFinite } from './playground-predict';
import type { PlaygroundRun } from './playground-run';
import type { PlaygroundFields } from '../runs/playground-records';

/** Channels-last rows [1, ...grid, C] to one array per channel (the first `channels`), decoded v * k + m. */
function channelsOf(row: { data: Float32Array; shape: number[] }, channels: number, k: number, m: number): number[][] {
  const C = row.shape[row.shape.length - 1]!;
  const P = row.data.length / C;
  return Array.from({ length: channels }, (_, c) => Array.from({ length: P }, (_, p) => row.data[p * C + c]! * k + m));
}

/** Sample `index` of the run's val or test split, in physical units: the input's channels (coordinates left out) and its truth. */
export function runSample(run: PlaygroundRun, split: 'val' | 'test', index: number): { input: PlaygroundFields; truth: PlaygroundFields; count: number } {
  const s = run.splits[split];
  const count = s ? s.x.shape[0]! : 0;
  if (!s || count === 0) throw new PlaygroundInputError('split', `the run's data has no '${split}' samples`);
  if (index >= count) throw new PlaygroundInputError('index', `${index} asked for, the '${split}' split has ${count} samples (0..${count - 1})`);
  const n = run.dataNormalization;
  const kx = n.applied ? n.x.std + n.eps : 1, mx = n.applied ? n.x.mean : 0;
  const ky = n.applied ? n.y.std + n.eps : 1, my = n.applied ? n.y.mean : 0;
  const x = gatherRows(s.x, [index]), y = gatherRows(s.y, [index]);
  const grid = x.shape.slice(1, -1);
  return { input: { grid, channels: channelsOf(x, run.inChannels, kx, mx) }, truth: { grid, channels: channelsOf(y, run.outChannels, ky, my) }, count };
}

/** Fields as one float32 array [...grid, channels] (channels-last, as the datasets store them). */
function fieldArray(f: { grid: number[]; channels: ArrayLike<number>[] }): NdArray {
  const C = f.channels.length, P = f.grid.reduce((a, b) => a * b, 1);
  const out = new Float32Array(P * C);
  for (let p = 0; p < P; p++) for (let c = 0; c < C; c++) out[p * C + c] = f.channels[c]![p]!;
  return ndarray(out, [...f.grid, C], 'float32');
}

/**
 * Writes input.npy, prediction.npy and, with a truth, truth.npy and error.npy (|prediction - truth|)
 * into a new folder of `exportsDir` (a free name from `name`): written under a hidden name, then renamed.
 */
export function exportPlaygroundArrays(exportsDir: string, name: string, input: PlaygroundFields, prediction: ArrayLike<number>[], truth?: PlaygroundFields): { folder: string; path: string; files: string[] } {
  mkdirSync(exportsDir, { recursive: true });
  const folder = freeName(exportsDir, name);
  const tmp = join(exportsDir, `.${folder}.${process.pid}.partial`);
  mkdirSync(tmp, { recursive: true });
  try {
    const arrays: Record<string, NdArray> = { input: fieldArray(input), prediction: fieldArray({ grid: input.grid, channels: prediction }) };
    if (truth) {
      arrays.truth = fieldArray(truth);
      arrays.error = fieldArray({ grid: input.grid, channels: truth.channels.map((t, c) => Float32Array.from(t, (v, i) => Math.abs(prediction[c]![i]! - v))) });
      // |prediction - truth| of two finite float32 values can still overflow
      const at = firstNonFloat32(arrays.error.data as Float32Array);
      if (at >= 0) throw new PlaygroundInputError('truth', `|prediction - truth| is not finite in float32 at value ${at} of error.npy: expected a truth nearer the model's prediction`);
    }
    for (const [k, a] of Object.entries(arrays)) writeNpy(join(tmp, `${k}.npy`), a);
    renameSync(tmp, join(exportsDir, folder));
    return { folder, path: join(exportsDir, folder), files: Object.keys(arrays).map((k) => `${k}.npy`) };
  } catch (e) {
    removeTemp(tmp);
    throw e;
  }
}

/**
 * Why a sample of `run` on `grid` cannot be appended to `m` (another benchmark, grid or channel
 * layout, rollout windows, a cached preparation, the data of a run), or null when it can. The
 * Playground offers only the datasets this answers null for, and the append refuses the others.
 */
export function appendRefusal(m: DatasetManifest, run: PlaygroundRun, grid: number[], usedBy: string[]): string | null {
  const bench = run.manifest.benchmark ?? run.benchmark;
  if (m.benchmark !== bench) return `dataset '${m.id}' is '${m.benchmark}' data, the run's input is '${bench}'`;
  if (m.grid.join() !== grid.join()) return `dataset '${m.id}' is on the grid [${m.grid.join(', ')}], the input is on [${grid.join(', ')}] (set the resolution to match)`;
  const xC = m.xChannels.length, yC = m.yChannels.length;
  if (xC !== run.inChannels + run.coordChannels || m.coordChannels !== run.coordChannels || yC !== run.outChannels) {
    return `dataset '${m.id}' has ${xC - m.coordChannels} input, ${m.coordChannels} coordinate and ${yC} target channels, the run's model ${run.inChannels}, ${run.coordChannels} and ${run.outChannels}`;
  }
  if (Object.keys(m.arrays ?? {}).some((k) => k.endsWith('_window_start'))) return `dataset '${m.id}' holds rollout windows (autoregressive data): the Playground appends operator samples`;
  if (m.cacheKey) return `dataset '${m.id}' is the stored preparation of a source (its id is its cache key): save the sample as a new dataset instead`;
  if (usedBy.length) return `dataset '${m.id}' is the data of run${usedBy.length > 1 ? 's' : ''} ${usedBy.join(', ')}: appending would change what they were trained and evaluated on; save the sample as a new dataset instead`;
  return null;
}

/**
 * Appends one sample (physical input and truth) to `split` of the workspace dataset `id`, encoded
 * with that dataset's own normalizer and coordinate channels. Answers the split's new count.
 */
export async function appendPlaygroundSample(workspace: string, id: string, split: 'train' | 'val' | 'test', run: PlaygroundRun, input: PlaygroundFields, truth: PlaygroundFields, usedBy: string[]): Promise<number> {
  const store = new DatasetStore(workspace);
  if (!store.has(id)) throw new PlaygroundInputError('into', `no dataset '${id}' in the workspace`);
  const m = store.manifest(id);
  const refused = appendRefusal(m, run, input.grid, usedBy);
  if (refused) throw new PlaygroundInputError('into', refused);
  const ds = await store.open(id);
  const n = m.normalization;
  const kx = n.applied ? n.x.std + n.eps : 1, mx = n.applied ? n.x.mean : 0;
  const ky = n.applied ? n.y.std + n.eps : 1, my = n.applied ? n.y.mean : 0;
  const enc = (f: PlaygroundFields, k: number, mu: number) => ({ grid: f.grid, channels: f.channels.map((c) => c.map((v) => (v - mu) / k)) });
  const coords = m.coordChannels ? encodeCoords(input.grid, m.coordChannels) : [];
  const x = fieldArray({ grid: input.grid, channels: [...enc(input, kx, mx).channels, ...coords] });
  const y = fieldArray(enc(truth, ky, my));
  // the dataset's own normalizer: a value finite in float32 may not be once encoded
  assertEncodedFinite(x.data as Float32Array, input.channels.length + coords.length, input, 'input', 'x');
  assertEncodedFinite(y.data as Float32Array, truth.channels.length, truth, 'truth', 'y');
  const s = ds[split];
  const grow = (a: NdArray, row: NdArray) => {
    const out = new Float32Array(a.data.length + row.data.length);
    out.set(a.data as Float32Array);
    out.set(row.data as Float32Array, a.data.length);
    return ndarray(out, [a.shape[0]! + 1, ...a.shape.slice(1)], 'float32');
  };
  const next = Math.max(-1, ...(['train', 'val', 'test'] as const).flatMap((k) => Array.from(ds[k].indices))) + 1;
  const grown: Record<string, NdArray> = {
    [`${split}_x`]: grow(s.x, x), [`${split}_y`]: grow(s.y, y),
    [`${split}_indices`]: ndarray(Int32Array.from([...s.indices, next]), [s.indices.length + 1], 'int32'),
  };
  // the content hash covers every array, as DatasetStore.save computes it
  const all: Record<string, NdArray> = {};
  for (const k of ['train', 'val', 'test'] as const) {
    all[`${k}_x`] = ds[k].x;
    all[`${k}_y`] = ds[k].y;
    all[`${k}_indices`] = ndarray(ds[k].indices, [ds[k].indices.length], 'int32');
  }
  return writeGrown(store.dir(id), m, grown, split, contentHash({ ...all, ...grown }));
}

/** The pipeline's coordinate channels (gridCoords: linspace(0, 1) per axis) as one array per axis. */
function encodeCoords(grid: number[], channels: number): number[][] {
  const c = gridCoords(grid), d = grid.length;
  return Array.from({ length: channels }, (_, k) => Array.from({ length: c.length / d }, (_, p) => c[p * d + k]!));
}

let writes = 0;

/** New files for the grown arrays, the manifest switched to them atomically, then the old files removed. */
function writeGrown(dir: string, m: DatasetManifest, grown: Record<string, NdArray>, split: 'train' | 'val' | 'test', hash: string): number {
  assertStorable(dir, m, grown);
  const arrays = { ...m.arrays! };
  const old: string[] = [];
  // a name no earlier version of the dataset used (the old files are removed by name below)
  const tag = `${Date.now().toString(36)}-${process.pid}-${++writes}`;
  for (const [name, a] of Object.entries(grown)) {
    const file = `${name}.${tag}.npy`;
    writeFileAtomic(join(dir, file), encodeNpy(a));
    if (arrays[name]) old.push(arrays[name]!.file);
    arrays[name] = { file, shape: [...a.shape], dtype: a.dtype };
  }
  const count = grown[`${split}_x`]!.shape[0]!;
  const counts = { ...m.counts, [split]: count };
  const manifest: DatasetManifest = {
    ...m, arrays, counts, sourceSamples: (m.sourceSamples ?? 0) + 1,
    contentHash: hash, warnings: [...(m.warnings ?? []), `one Playground sample appended to the ${split} split (${new Date().toISOString()})`],
  };
  writeFileAtomic(join(dir, 'manifest.json'), JSON.stringify(manifest, null, 2) + '\n');
  for (const f of old) rmSync(join(dir, f), { force: true });
  return count;
}
