// Evaluation jobs of the Fields view, keyed by what was asked (run, extra resolutions, sample
// index), so going back to an earlier choice shows its result without evaluating again. The
// result arrives on the job event (app store `jobs`).
import { useCallback, useState } from 'react';
import type { EvaluationResult, JobSummary } from '../../../../main/api/contract';
import { useApp } from '../../store/app-store';

export interface EvalRequest {
  runId: string;
  resolutions: number[];
  /** A sample asked for by index (besides best/median/worst); null: none. */
  index: number | null;
}

export const requestKey = (r: EvalRequest) => `${r.runId}|${r.resolutions.join(',')}|${r.index ?? ''}`;

export interface EvalState {
  job?: JobSummary;
  result: EvaluationResult | null;
  /** Why the evaluation could not start or failed (the engine's message). */
  error: string | null;
  busy: boolean;
}

export function useEvaluations() {
  const api = useApp((s) => s.api);
  const jobs = useApp((s) => s.jobs);
  const [jobByKey, setJobByKey] = useState<Record<string, string>>({});
  const [startErrors, setStartErrors] = useState<Record<string, string>>({});

  const start = useCallback(
    async (r: EvalRequest) => {
      if (!api) return;
      const key = requestKey(r);
      setStartErrors(({ [key]: _, ...rest }) => rest);
      try {
        const j = await api.call('runs.evaluate', { id: r.runId, checkpoint: 'best', split: 'val', fields: true, resolutions: r.resolutions, indices: r.index === null ? [] : [r.index] });
        setJobByKey((m) => ({ ...m, [key]: j.id }));
      } catch (e) {
        setStartErrors((m) => ({ ...m, [key]: e instanceof Error ? e.message : String(e) }));
      }
    },
    [api],
  );

  const state = useCallback(
    (r: EvalRequest | null): EvalState => {
      if (!r) return { result: null, error: null, busy: false };
      const key = requestKey(r);
      const id = jobByKey[key];
      const job = id ? jobs[id] : undefined;
      return {
        job,
        result: job?.state === 'done' ? (job.result as EvaluationResult) : null,
        error: startErrors[key] ?? (job?.state === 'failed' ? (job.error ?? 'evaluation failed') : null),
        busy: job?.state === 'running' || job?.state === 'queued',
      };
    },
    [jobByKey, jobs, startErrors],
  );

  return { start, state, asked: (r: EvalRequest) => requestKey(r) in jobByKey };
}
