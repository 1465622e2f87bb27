// The data of a PyTorch run, written once per dataset, resolution and split in the prepared layout
// (the export `lino export-run` writes) into <workspace>/.lino/torch-data/<key>/ and reused by every
// later run on the same data. The key hashes the run's data spec (source, resolution, split, seed of
// the split) and the dataset's content hash; a folder is complete when its complete.json exists
// (written last, after an atomic rename of the whole folder into place).
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, renameSync } from 'node:fs';
import { join } from 'node:path';
import type { TrainConfig } from './config';
import type { TrainData } from './data';
import { asPrepared } from './cluster-export';
import { exportDataset } from '../data/export';
import { writeJsonAtomic } from '../util/atomic-file';
import { removeOwnTree, removeTemp } from '../util/remove-tree';

export const TORCH_DATA_DIR = join('.lino', 'torch-data');

/** The cache key of a run's data: what the data spec asks for and what it resolved to. */
export function torchDataKey(cfg: TrainConfig, data: TrainData): string {
  const m = data.manifest;
  const what = {
    spec: cfg.data,
    contentHash: m.contentHash ?? null,
    grid: m.grid,
    counts: [data.train.x.shape, data.val.x.shape, data.test?.x.shape ?? null],
    normalization: m.normalization,
  };
  return createHash('sha256').update(JSON.stringify(what)).digest('hex').slice(0, 20);
}

/** The folder holding the run's data for scaleout (written now if no earlier run wrote it). */
export async function torchDataFolder(cfg: TrainConfig, data: TrainData, root: string, log: (m: string) => void = () => {}): Promise<string> {
  const key = torchDataKey(cfg, data);
  const dir = join(root, key);
  if (existsSync(join(dir, 'complete.json'))) {
    log(`data for PyTorch: reusing ${dir}`);
    return dir;
  }
  mkdirSync(root, { recursive: true });
  const tmp = join(root, `.${key}.${process.pid}.partial`);
  try {
    const files = await exportDataset(asPrepared(data, `torch-${key}`), 'npy', tmp, 'prepared');
    writeJsonAtomic(join(tmp, 'complete.json'), { key, files: files.length, writtenAt: new Date().toISOString() });
    removeOwnTree(root, key, { names: /^[0-9a-f]{20}$/, what: 'a PyTorch data folder' }); // an incomplete leftover (no complete.json)
    try {
      renameSync(tmp, dir);
    } catch (e) {
      // another run wrote the same data meanwhile: theirs stands
      if (!existsSync(join(dir, 'complete.json'))) throw e;
    }
  } finally {
    removeTemp(tmp);
  }
  log(`data for PyTorch: wrote ${dir}`);
  return dir;
}
