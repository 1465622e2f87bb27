// The accuracy-against-cost job (cost.benchmark) a view starts: its job id, its result from the job
// events, why it could not start. One at a time per workbench window; kept across view switches.
import { create } from 'zustand';
import type { CostReport, JobSummary, Params } from '../../../main/api/contract';
import { errorText } from '../api/error-text';
import { useApp } from './app-store';

interface CostStore {
  jobId: string | null;
  error: string | null;
  start(params: Params<'cost.benchmark'>): Promise<void>;
}

export const useCostStore = create<CostStore>((set) => ({
  jobId: null,
  error: null,
  async start(params) {
    const api = useApp.getState().api;
    if (!api) return;
    set({ error: null });
    try {
      const j = await api.call('cost.benchmark', params);
      set({ jobId: j.id });
    } catch (e) {
      set({ error: errorText(e) });
    }
  },
}));

/** The cost job's state: its summary, its report once done, an error (start refused or job failed). */
export function useCost(): { job: JobSummary | undefined; report: CostReport | null; error: string | null; busy: boolean; start: CostStore['start'] } {
  const jobId = useCostStore((s) => s.jobId);
  const startError = useCostStore((s) => s.error);
  const start = useCostStore((s) => s.start);
  const job = useApp((s) => (jobId ? s.jobs[jobId] : undefined));
  return {
    job,
    report: job?.state === 'done' ? (job.result as CostReport) : null,
    error: startError ?? (job?.state === 'failed' ? (job.error ?? 'the timing failed') : null),
    busy: job?.state === 'queued' || job?.state === 'running',
    start,
  };
}
