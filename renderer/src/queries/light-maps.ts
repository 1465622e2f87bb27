// One validation sample's light maps for the Light maps view (runs.lightMaps answers in the call,
// no job): the maps when the run, checkpoint or sample change, and a query point's kernel when a
// point is picked (the maps come back again with it, from the same forward pass). The shown maps
// stay while the next ones compute.
import { useQuery } from './use-query';

export interface LightMapsRequest {
  runId: string;
  checkpoint: 'best' | 'last';
  sample: number;
  query: number[] | null;
}

export function useLightMaps(req: LightMapsRequest | null) {
  const q = useQuery(
    req ? JSON.stringify(req) : null,
    (a) => a.call('runs.lightMaps', { id: req!.runId, checkpoint: req!.checkpoint, split: 'val', sample: req!.sample, ...(req!.query ? { query: req!.query } : {}) }),
    { keep: true, clearOnError: true },
  );
  return { result: q.value, error: q.error, busy: q.busy };
}
