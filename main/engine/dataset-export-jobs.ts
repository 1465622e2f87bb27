// A stored dataset's statistics and its export from the app (the same code as `lino data export`,
// main/data/export.ts), as a job writing into the workspace's exports/ folder.
import { existsSync, readdirSync, renameSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { ApiError, type DatasetStats } from '../api/contract';
import { DatasetStore } from '../data/dataset-store';
import type { PreparedDataset, SplitName } from '../data/dataset';
import { exportDataset, type ExportFormat, type ExportLayout } from '../data/export';
import { NORM_EPS } from '../data/stages/normalize';
import type { JobContext } from './jobs';

export function datasetStore(workspace: string, id: string): DatasetStore {
  const store = new DatasetStore(workspace);
  if (!store.has(id)) throw new ApiError(`no dataset '${id}' in ${store.root}`, 'not_found', { field: 'id' });
  return store;
}

/** Min, max, mean and (population) std of each channel of a channels-last array, decoded to physical units. */
export function channelStats(data: Float32Array, channels: number, names: string[], decode: { scale: number; shift: number }): DatasetStats['x'] {
  return names.map((name, c) => {
    let min = Infinity, max = -Infinity, sum = 0, sumSq = 0, n = 0;
    for (let i = c; i < data.length; i += channels) {
      const v = data[i]! * decode.scale + decode.shift;
      if (v < min) min = v;
      if (v > max) max = v;
      sum += v;
      n++;
    }
    if (n === 0) return { name, min: null, max: null, mean: null, std: null };
    const mean = sum / n;
    // Two passes: the one-pass formula loses digits when |mean| >> std.
    for (let i = c; i < data.length; i += channels) {
      const d = data[i]! * decode.scale + decode.shift - mean;
      sumSq += d * d;
    }
    return { name, min, max, mean, std: Math.sqrt(sumSq / n) };
  });
}

export function statsOf(ds: PreparedDataset, split: SplitName): DatasetStats {
  const m = ds.manifest;
  const s = ds[split];
  const decode = (which: 'x' | 'y') =>
    m.normalization.applied ? { scale: m.normalization[which].std + NORM_EPS, shift: m.normalization[which].mean } : { scale: 1, shift: 0 };
  const cx = s.x.shape[s.x.shape.length - 1]!;
  const cy = s.y.shape[s.y.shape.length - 1]!;
  // Coordinate channels (the last ones of x) are not data: left out.
  const xNames = m.xChannels.slice(0, m.xChannels.length - (m.coordChannels ?? 0));
  return {
    id: m.id,
    split,
    count: s.x.shape[0]!,
    grid: [...m.grid],
    x: channelStats(s.x.data as Float32Array, cx, xNames, decode('x')),
    y: channelStats(s.y.data as Float32Array, cy, m.yChannels, decode('y')),
  };
}

// A stored dataset never changes under its content hash: statistics are computed once per split.
const statsCache = new Map<string, DatasetStats>();

export async function datasetStats(p: { workspace: string; id: string; split: SplitName }): Promise<DatasetStats> {
  const store = datasetStore(p.workspace, p.id);
  const key = `${store.root}/${p.id}/${store.manifest(p.id).contentHash}/${p.split}`;
  const hit = statsCache.get(key);
  if (hit) return hit;
  const ds = await store.open(p.id);
  const all = (['train', 'val', 'test'] as const).map((split) => statsOf(ds, split));
  if (statsCache.size > 64) statsCache.clear();
  for (const s of all) statsCache.set(`${store.root}/${p.id}/${store.manifest(p.id).contentHash}/${s.split}`, s);
  return all.find((s) => s.split === p.split)!;
}

export function exportLabel(p: Record<string, unknown>): string {
  return `Export dataset ${String(p.id)} (${String(p.layout ?? 'raw')}, ${String(p.format ?? 'mat73')})`;
}

/** A folder name not yet taken in `dir`: base, base-2, base-3, ... */
function freeName(dir: string, base: string): string {
  let name = base;
  for (let i = 2; existsSync(join(dir, name)); i++) name = `${base}-${i}`;
  return name;
}

/**
 * Writes into a hidden temporary folder and renames it when complete, so the Export view never
 * lists a half-written export and a cancelled one leaves nothing behind.
 */
export async function runDatasetExport(params: Record<string, unknown>, ctx: JobContext) {
  const workspace = String(params.workspace ?? '');
  const id = String(params.id ?? '');
  const format = (params.format ?? 'mat73') as ExportFormat;
  const layout = (params.layout ?? 'raw') as ExportLayout;
  if (!workspace) throw new ApiError('export: no workspace folder given', 'invalid_params', { field: 'workspace' });
  const store = datasetStore(workspace, id);
  ctx.progress(0.02, 'reading the dataset');
  const ds = await store.open(id);
  if (ctx.signal.aborted) throw new Error('cancelled');
  const exportsDir = join(workspace, 'exports');
  const folder = freeName(exportsDir, `${id}-${layout}-${format}`.replace(/[^A-Za-z0-9._-]+/g, '_'));
  const tmp = join(exportsDir, `.${folder}.${process.pid}.partial`);
  rmSync(tmp, { recursive: true, force: true });
  try {
    ctx.progress(0.1, `writing ${format === 'npy' ? '.npy files' : 'a MATLAB v7.3 file'}`);
    await exportDataset(ds, format, tmp, layout, (done, total) => {
      if (ctx.signal.aborted) throw new Error('cancelled');
      ctx.progress(0.1 + (0.88 * done) / Math.max(1, total), `wrote ${done} of ${total} variables`);
    });
    if (ctx.signal.aborted) throw new Error('cancelled');
    renameSync(tmp, join(exportsDir, folder));
  } catch (e) {
    rmSync(tmp, { recursive: true, force: true });
    throw e;
  }
  const files = readdirSync(join(exportsDir, folder)).sort();
  const bytes = files.reduce((t, f) => t + statSync(join(exportsDir, folder, f)).size, 0);
  return { id, format, layout, folder, files: files.map((f) => `${folder}/${f}`), bytes };
}
