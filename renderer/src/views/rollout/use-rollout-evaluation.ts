// The Rollout view's evaluation of the chosen run (through the shared evaluation hook): the job
// last asked for here (its progress and errors) and the result to draw, which is the latest
// finished rollout evaluation of this run, whoever asked for it, so a running or failed new
// evaluation leaves the previous one on screen.
import { useMemo } from 'react';
import type { EvaluationResult } from '../../../../main/api/contract';
import { useApp } from '../../stores/app-store';
import { useEvaluation, useEvaluationStore, type EvaluateParams } from '../../stores/evaluations';

export function useRolloutEvaluation(runId: string | null) {
  const jobs = useApp((s) => s.jobs);
  const evals = useEvaluation();
  const key = runId ? `rollout|${runId}` : null;
  const startError = useEvaluationStore((s) => (key ? (s.startErrors[key] ?? null) : null));
  const earlier = useMemo(() => {
    if (!runId) return undefined;
    const done = Object.values(jobs).filter((j) => {
      const r = j.kind === 'evaluate' && j.state === 'done' ? (j.result as EvaluationResult | undefined) : undefined;
      return r?.runId === runId && !!r.resolutions[0]?.fields?.some((f) => f.stepRelL2);
    });
    return done.sort((a, b) => (a.endedAt ?? '').localeCompare(b.endedAt ?? '')).pop();
  }, [jobs, runId]);
  const job = key && evals.asked(key) ? evals.state(key).job : earlier;
  const shownJob = job?.state === 'done' ? job : earlier;
  return {
    job,
    result: shownJob ? (shownJob.result as EvaluationResult) : null,
    startError,
    start: (params: EvaluateParams) => (key ? evals.start(key, params) : Promise.resolve(null)),
  };
}
