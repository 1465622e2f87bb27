// Fetches one sample's light maps (runs.lightMaps) for the Light maps view: the maps when the run,
// checkpoint or sample change, and a query point's kernel when a point is picked (the maps come
// back again with it, from the same forward pass).
import { useEffect, useState } from 'react';
import type { LightMapsResult } from '../../../../main/api/contract';
import { useApp } from '../../store/app-store';

export interface LightMapsRequest {
  runId: string;
  checkpoint: 'best' | 'last';
  sample: number;
  query: number[] | null;
}

export interface LightMapsState {
  result: LightMapsResult | null;
  error: string | null;
  busy: boolean;
}

export function useLightMaps(req: LightMapsRequest | null): LightMapsState {
  const api = useApp((s) => s.api);
  const [state, setState] = useState<LightMapsState>({ result: null, error: null, busy: false });
  const key = req ? JSON.stringify(req) : '';
  useEffect(() => {
    if (!api || !req) return;
    let live = true;
    setState((s) => ({ ...s, error: null, busy: true }));
    api
      .call('runs.lightMaps', { id: req.runId, checkpoint: req.checkpoint, split: 'val', sample: req.sample, ...(req.query ? { query: req.query } : {}) })
      .then((result) => live && setState({ result, error: null, busy: false }))
      .catch((e: unknown) => live && setState({ result: null, error: e instanceof Error ? e.message : String(e), busy: false }));
    return () => {
      live = false;
    };
  }, [api, key]); // key stands for req's contents
  return state;
}
