// datasets.stats: a stored dataset's per-channel statistics, answered directly (not as a job).
import type { DatasetStats } from '../data/dataset-records';
import type { SplitName } from '../data/dataset';
import { statsOf } from '../data/dataset-stats';
import { datasetStore } from './dataset-export-jobs';

// A stored dataset never changes under its content hash: statistics are computed once per split.
const statsCache = new Map<string, DatasetStats>();

export async function datasetStatsCall(p: { workspace: string; id: string; split: SplitName }): Promise<DatasetStats> {
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
