// The light-map correlation table of a run's checkpoint (runs.lightMapsCorrelation, a job): which
// job answers which run and checkpoint, and why one could not start. Progress and the result
// arrive on job events (app store `jobs`); kept across view switches, so the table stays.
import { useCallback } from 'react';
import { create } from 'zustand';
import type { JobSummary, LightMapsCorrelationResult } from '../../../main/api/contract';
import { errorText } from '../api/error-text';
import { useApp } from './app-store';

export interface CorrelationRequest {
  runId: string;
  checkpoint: 'best' | 'last';
}

interface CorrelationStore {
  jobByKey: Record<string, string>;
  startErrors: Record<string, string>;
  start(req: CorrelationRequest): Promise<void>;
}

const keyOf = (r: CorrelationRequest) => `${r.runId}|${r.checkpoint}`;

const useCorrelationStore = create<CorrelationStore>((set) => ({
  jobByKey: {},
  startErrors: {},
  async start(req) {
    const api = useApp.getState().api;
    if (!api) return;
    const key = keyOf(req);
    set((s) => {
      const { [key]: _, ...rest } = s.startErrors;
      return { startErrors: rest };
    });
    try {
      const j = await api.call('runs.lightMapsCorrelation', { id: req.runId, checkpoint: req.checkpoint, split: 'val' });
      set((s) => ({ jobByKey: { ...s.jobByKey, [key]: j.id } }));
    } catch (e) {
      set((s) => ({ startErrors: { ...s.startErrors, [key]: errorText(e) } }));
    }
  },
}));

export interface CorrelationState {
  job?: JobSummary;
  result: LightMapsCorrelationResult | null;
  error: string | null;
  busy: boolean;
  compute(): void;
}

/** The correlation table of the validation split for a run and checkpoint, and `compute` to start it. */
export function useLightMapsCorrelation(req: CorrelationRequest | null): CorrelationState {
  const jobs = useApp((s) => s.jobs);
  const jobByKey = useCorrelationStore((s) => s.jobByKey);
  const startErrors = useCorrelationStore((s) => s.startErrors);
  const start = useCorrelationStore((s) => s.start);
  const key = req ? keyOf(req) : null;
  const runId = req?.runId;
  const checkpoint = req?.checkpoint;
  const compute = useCallback(() => {
    if (runId && checkpoint) void start({ runId, checkpoint });
  }, [runId, checkpoint, start]);
  const id = key ? jobByKey[key] : undefined;
  const job = id ? jobs[id] : undefined;
  return {
    job,
    result: job?.state === 'done' ? (job.result as LightMapsCorrelationResult) : null,
    error: (key && startErrors[key]) || (job?.state === 'failed' ? (job.error ?? 'the correlation failed') : null),
    busy: job?.state === 'running' || job?.state === 'queued',
    compute,
  };
}
