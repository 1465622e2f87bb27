// Every evaluation job a view asks for (runs.evaluate: Fields, Ablation, Rollout, prediction
// export) goes through here: which job answers which request (by a key the view chooses, e.g.
// 'fields|<run>|<resolutions>|<index>'), and why one could not start. The job's progress and
// result arrive on job events (app store `jobs`). Kept across view switches, so going back to a
// view, or to an earlier choice, shows its result without evaluating again; a finished result is
// also kept in its run folder (runs.evaluation), so a reload or a restart shows it too.
import { useCallback, useEffect } from 'react';
import { create } from 'zustand';
import type { EvaluationResult, JobSummary, Params } from '../../../main/api/contract';
import { errorText } from '../api/error-text';
import { useApp } from './app-store';

export type EvaluateParams = Params<'runs.evaluate'>;

export interface EvalState {
  job?: JobSummary;
  /** The finished job's result; null until it is done. */
  result: EvaluationResult | null;
  /** Why the evaluation could not start or failed (the engine's message). */
  error: string | null;
  busy: boolean;
}

interface EvaluationStore {
  jobByKey: Record<string, string>;
  startErrors: Record<string, string>;
  /** Results kept in their run folders (runs.evaluation), by key: shown after a reload or a restart. */
  cached: Record<string, EvaluationResult>;
  /**
   * Keys with no kept result when recalled: an evaluation of that run may still be running in the
   * engine (asked before a reload); followed by its job's label until it ends, then recalled again.
   */
  missed: Record<string, { label: string; at: string; params: EvaluateParams }>;
  /** Reads a kept result for `key` once (nothing when none is kept). */
  recall(key: string, params: EvaluateParams): Promise<void>;
  /** Starts an evaluation for `key` (replacing an earlier one); answers its job id, null when refused. */
  start(key: string, params: EvaluateParams): Promise<string | null>;
}

const recalled = new Set<string>();

/** The engine's label of an evaluation job (main/engine/evaluate-job.ts `evaluateLabel`). */
export const evaluationLabel = (p: { id: string; checkpoint?: string }) => `Evaluate run ${p.id} (${p.checkpoint ?? 'best'})`;

export const useEvaluationStore = create<EvaluationStore>((set, get) => ({
  jobByKey: {},
  startErrors: {},
  cached: {},
  missed: {},
  async recall(key, params) {
    const api = useApp.getState().api;
    if (!api || recalled.has(key)) return;
    recalled.add(key);
    const { exportPredictions: _e, exportFormat: _f, ...ask } = params;
    try {
      const at = new Date().toISOString();
      const r = await api.call('runs.evaluation', ask);
      if (r) set((s) => ({ cached: { ...s.cached, [key]: r } }));
      else if (!(key in get().jobByKey)) set((s) => ({ missed: { ...s.missed, [key]: { label: evaluationLabel(params), at, params } } }));
    } catch {
      recalled.delete(key); // a run being deleted, a host restarting: ask again next time
    }
  },
  async start(key, params) {
    const api = useApp.getState().api;
    if (!api) return null;
    set((s) => {
      const { [key]: _, ...rest } = s.startErrors;
      return { startErrors: rest };
    });
    try {
      const j = await api.call('runs.evaluate', params);
      set((s) => ({ jobByKey: { ...s.jobByKey, [key]: j.id } }));
      return j.id;
    } catch (e) {
      set((s) => ({ startErrors: { ...s.startErrors, [key]: errorText(e) } }));
      return null;
    }
  },
}));

/** What a view shows for an evaluation job (undefined: none asked). */
export function evalState(job: JobSummary | undefined, startError?: string, kept?: EvaluationResult): EvalState {
  return {
    job,
    result: job?.state === 'done' ? (job.result as EvaluationResult) : job ? null : kept ?? null,
    error: startError ?? (job?.state === 'failed' ? (job.error ?? 'evaluation failed') : null),
    busy: job?.state === 'running' || job?.state === 'queued',
  };
}

/**
 * The evaluations a view asked for, by key: `start(key, params)`, `state(key)` (job, result,
 * error, busy) and `asked(key)`. Every view that evaluates a run uses this one hook.
 */
export function useEvaluation() {
  const jobs = useApp((s) => s.jobs);
  const jobByKey = useEvaluationStore((s) => s.jobByKey);
  const startErrors = useEvaluationStore((s) => s.startErrors);
  const start = useEvaluationStore((s) => s.start);
  const cached = useEvaluationStore((s) => s.cached);
  const recall = useEvaluationStore((s) => s.recall);
  const missed = useEvaluationStore((s) => s.missed);
  // After a reload: an evaluation of the run still running is shown as under way; when one ends,
  // the kept result is read again (by its exact request, never another request's job result).
  const running = (key: string) => {
    const m = missed[key];
    return m ? Object.values(jobs).find((j) => j.kind === 'evaluate' && j.label === m.label && (j.state === 'running' || j.state === 'queued')) : undefined;
  };
  useEffect(() => {
    for (const [key, m] of Object.entries(missed)) {
      const ended = Object.values(jobs).some((j) => j.kind === 'evaluate' && j.label === m.label && j.state === 'done' && (j.endedAt ?? '') >= m.at);
      if (!ended) continue;
      recalled.delete(key);
      useEvaluationStore.setState((s) => {
        const { [key]: _, ...rest } = s.missed;
        return { missed: rest };
      });
      void recall(key, m.params);
    }
  }, [jobs, missed, recall]);
  const state = useCallback(
    (key: string | null): EvalState => {
      if (key === null) return evalState(undefined);
      const id = jobByKey[key];
      const job = id ? jobs[id] : undefined;
      if (!job && !cached[key] && running(key)) return { ...evalState(running(key)), result: null };
      return evalState(job, startErrors[key], cached[key]);
    },
    [jobByKey, jobs, startErrors, cached, missed],
  );
  const asked = useCallback((key: string) => key in jobByKey || key in cached, [jobByKey, cached]);
  return { start, state, asked, recall };
}
