// The dataset calls the engine answers at once: the generators' presets, one stored sample for
// preview, and a chosen file's listing (in a worker with a deadline). The jobs (generate, import)
// are in ./dataset-jobs.ts.
import { basename } from 'node:path';
import { ApiError } from '../api/api-error';
import { type DatasetSample } from '../data/dataset-records';
import { PRESETS } from '../data/generate/index';
import type { BenchmarkName } from '../data/generate/types';
import { DatasetStore } from '../data/dataset-store';
import { decodeValues, type PreparedDataset, type SplitName } from '../data/dataset';
import { inspectWithDeadline } from '../data/formats/index';
import { groupVariables, layoutHints } from '../data/stages/layout';

export function datasetPresets() {
  return (Object.keys(PRESETS) as BenchmarkName[]).map((benchmark) => ({
    benchmark,
    presets: Object.fromEntries(Object.entries(PRESETS[benchmark]).map(([name, p]) => [name, { ...p } as Record<string, unknown>])),
  }));
}

const pick = (s: { mean: number; std: number; min: number; max: number }) => ({ mean: s.mean, std: s.std, min: s.min, max: s.max });

// The last dataset previewed stays open: stepping through samples must not reread every array.
let open: { key: string; ds: PreparedDataset } | null = null;

export async function datasetSample(p: { workspace: string; id: string; split: SplitName; index: number }): Promise<DatasetSample> {
  const store = new DatasetStore(p.workspace);
  if (!store.has(p.id)) throw new ApiError(`no dataset '${p.id}' in ${store.root}`, 'not_found', { field: 'id' });
  const m = store.manifest(p.id);
  const key = `${store.root}/${p.id}/${m.contentHash}`;
  if (open?.key !== key) open = { key, ds: await store.open(p.id) };
  const ds = open.ds;
  const split = ds[p.split];
  const count = split.x.shape[0]!;
  if (p.index >= count) throw new ApiError(`sample ${p.index} is out of range: the ${p.split} split has ${count} rows (0..${count - 1})`, 'invalid_params', { field: 'index' });
  const channels = (a: typeof split.x, names: string[], which: 'x' | 'y') => {
    const C = a.shape[a.shape.length - 1]!;
    const per = a.shape.slice(1).reduce((x, y) => x * y, 1);
    const points = per / C;
    const row = (a.data as Float32Array).subarray(p.index * per, (p.index + 1) * per);
    return names.map((name, c) => {
      const v = new Float32Array(points);
      for (let i = 0; i < points; i++) v[i] = row[i * C + c]!;
      return { name, values: Array.from(decodeValues(ds, v, which)) };
    });
  };
  return {
    id: p.id,
    benchmark: String(m.benchmark),
    split: p.split,
    index: p.index,
    count,
    counts: m.counts,
    grid: [...m.grid],
    // xChannels ends with the coordinate channels' names; those are not data and are not normalized.
    x: channels(split.x, m.xChannels.slice(0, m.xChannels.length - (m.coordChannels ?? 0)), 'x'),
    y: channels(split.y, m.yChannels, 'y'),
    sourceIndex: split.indices[p.index] ?? p.index,
    warnings: m.warnings ?? [],
    stats: {
      x: pick(m.normalization.x),
      y: pick(m.normalization.y),
      normalized: m.normalization.applied,
    },
  };
}

/**
 * The file browser's listing of a chosen file: variables with shape, dtype and size, nothing loaded.
 * In a worker with a deadline, so a pathological file is an error and the engine keeps answering.
 */
export async function datasetInspect(p: { path: string }) {
  const r = await inspectWithDeadline(p.path);
  const groups = groupVariables(r.variables).map((v) => ({ name: v.name, shape: v.shape, dtype: v.dtype, bytes: v.bytes }));
  const hints = layoutHints(r.format, r.variables);
  return {
    name: basename(p.path), format: r.format, variables: r.variables.map((v) => ({ ...v, shape: [...v.shape] })),
    ...(groups.length ? { groups } : {}), ...(hints.length ? { hints } : {}),
  };
}
