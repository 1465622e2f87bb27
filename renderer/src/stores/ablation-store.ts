// What the Ablation view asked the engine for, kept across view switches (zustand): launching the
// variants (one sweep: the ablation is a preset of a sweep), and per ablation key the evaluations
// behind its error-field grid and the variants' parameter counts. The evaluations go through the
// shared evaluation store; their results arrive on job events (app store `jobs`). When the full
// model's evaluation finishes, this store (not the view) evaluates the other variants on its best /
// median / worst samples and counts parameters.
import { create } from 'zustand';
import type { EvaluationResult, TrainConfigInput } from '../../../main/api/contract';
import { errorText } from '../api/error-text';
import { useApp } from './app-store';
import { useEvaluationStore, type EvaluateParams } from './evaluations';
import { gridSamples } from '../logic/ablation-results';
import { ablationSweep, type VariantKey } from '../logic/ablation-plan';
import { paramsEstimateParams, type AblationTarget, type ModelSection } from '../logic/ablation-view-data';

export type { AblationTarget, ModelSection } from '../logic/ablation-view-data';

export interface AblationEval {
  /** The full model's evaluation job (its best / median / worst samples pick the grid's columns). */
  full: string;
  /** The other variants' runs, evaluated once the full model's result is there. */
  targets: AblationTarget[];
  /** Each variant's model settings, for the parameter counts. */
  models: Partial<Record<VariantKey, ModelSection>>;
  /** The other variants' evaluation jobs for the same sample indices. */
  others: Partial<Record<VariantKey, string>>;
  /** Every other variant's evaluation was asked for (some may have been refused: shown as errors). */
  othersAsked: boolean;
  samples: { index: number; label: string }[];
}

export interface AblationState {
  evals: Record<string, AblationEval>;
  params: Record<string, Partial<Record<VariantKey, number>>>;
  /** Per ablation key, the last evaluation problem (a refused start, no fields, a failed count). */
  errors: Record<string, string>;
  /** Starts the variants as one sweep (a seed group per config); answers why not, or null. */
  launch(configs: TrainConfigInput[], seeds: number): Promise<string | null>;
  /** Evaluates the full model's run, then (on its result) the others on the same samples. */
  evaluate(key: string, full: AblationTarget, others: AblationTarget[], models: AblationEval['models']): Promise<void>;
}

const evalKey = (key: string, variant: VariantKey) => `ablation|${key}|${variant}`;
const fieldsOf = (runId: string, indices?: number[]): EvaluateParams => ({ id: runId, checkpoint: 'best', split: 'val', fields: true, ...(indices ? { indices } : {}) });

export const useAblation = create<AblationState>((set) => ({
  evals: {},
  params: {},
  errors: {},
  async launch(configs, seeds) {
    const api = useApp.getState().api;
    if (!api) return 'not connected to the workbench';
    try {
      // One sweep, a grid over the components with one seed group per variant: the sweep engine
      // creates every run at once and trains them one after another.
      await api.call('sweeps.start', { config: ablationSweep(configs, seeds) });
      return null;
    } catch (e) {
      return `Could not queue the variants: ${errorText(e)}`;
    }
  },
  async evaluate(key, full, others, models) {
    set((s) => ({ errors: without(s.errors, key) }));
    const k = evalKey(key, 'full');
    const id = await useEvaluationStore.getState().start(k, fieldsOf(full.runId));
    if (!id) return setError(key, `Could not evaluate ${full.runName}: ${useEvaluationStore.getState().startErrors[k]}`);
    set((s) => ({ evals: { ...s.evals, [key]: { full: id, targets: others, models, others: {}, othersAsked: false, samples: [] } } }));
    // The job's events travel beside the call's answer: a quick evaluation can be done before its
    // id comes back, and with no job event after it the other variants were never evaluated.
    followUp();
  },
}));

function without<T>(m: Record<string, T>, key: string): Record<string, T> {
  const { [key]: _, ...rest } = m;
  return rest;
}

function setError(key: string, text: string) {
  useAblation.setState((s) => ({ errors: { ...s.errors, [key]: text } }));
}

/** Updates an evaluation only while it is still the current one for its key (a newer click wins). */
function patchEval(key: string, full: string, patch: Partial<AblationEval>) {
  useAblation.setState((s) => (s.evals[key]?.full === full ? { evals: { ...s.evals, [key]: { ...s.evals[key]!, ...patch } } } : s));
}

/** Once a full model's evaluation is done: the other variants on its samples, and the parameter counts. */
function followUp() {
  const jobs = useApp.getState().jobs;
  for (const [key, ev] of Object.entries(useAblation.getState().evals)) {
    const job = jobs[ev.full];
    if (ev.othersAsked || ev.samples.length > 0 || job?.state !== 'done') continue;
    const res = (job.result as EvaluationResult).resolutions[0];
    const fields = res?.fields ?? [];
    if (fields.length === 0) {
      setError(key, 'This run returned no sample fields (the grid is drawn for operator and rollout tasks only).');
      patchEval(key, ev.full, { othersAsked: true });
      continue;
    }
    const samples = gridSamples(fields.filter((f) => f.which !== 'index'));
    patchEval(key, ev.full, { samples });
    void evaluateOthers(key, ev, samples.map((s) => s.index));
    const f0 = fields[0]!;
    if (!f0.stepRelL2 && res!.grid.length <= 2) void countParams(key, ev, { grid: res!.grid, inChannels: f0.input.length, outChannels: f0.reference.length });
  }
}

async function evaluateOthers(key: string, ev: AblationEval, indices: number[]) {
  const others: Partial<Record<VariantKey, string>> = {};
  for (const t of ev.targets) {
    const k = evalKey(key, t.variant);
    const id = await useEvaluationStore.getState().start(k, fieldsOf(t.runId, indices));
    if (id) others[t.variant] = id;
    else setError(key, `Could not evaluate ${t.runName}: ${useEvaluationStore.getState().startErrors[k]}`);
  }
  patchEval(key, ev.full, { others, othersAsked: true });
}

async function countParams(key: string, ev: AblationEval, shape: { grid: number[]; inChannels: number; outChannels: number }) {
  const api = useApp.getState().api;
  if (!api) return;
  try {
    const got = await Promise.all(
      Object.entries(ev.models).map(async ([variant, m]) => {
        const ask = paramsEstimateParams(m, shape);
        if (!ask) return null;
        const est = await api.call('model.estimate', ask);
        return [variant, est.params] as const;
      }),
    );
    useAblation.setState((s) => ({ params: { ...s.params, [key]: Object.fromEntries(got.filter((x) => x !== null)) } }));
  } catch (e) {
    setError(key, `Could not count the parameters: ${errorText(e)}`);
  }
}

useApp.subscribe((s, prev) => {
  if (s.jobs !== prev.jobs) followUp();
});
