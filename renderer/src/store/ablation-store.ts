// What the Ablation view asked the engine for, kept across view switches (zustand): per ablation
// key, the evaluation jobs behind its error-field grid and the variants' parameter counts. The
// jobs' results live in the app store's job list; the runs themselves are found by group name.
import { create } from 'zustand';
import type { VariantKey } from './ablation-plan';

export interface AblationEval {
  /** The full model's evaluation job (its best / median / worst samples pick the grid's columns). */
  full: string;
  /** The other variants' evaluation jobs for the same sample indices. */
  others: Partial<Record<VariantKey, string>>;
  /** Every other variant's evaluation was asked for (some may have been refused: shown as errors). */
  othersAsked: boolean;
  samples: { index: number; label: string }[];
}

export interface AblationState {
  evals: Record<string, AblationEval>;
  params: Record<string, Partial<Record<VariantKey, number>>>;
  setEval(key: string, e: AblationEval): void;
  /** Updates an evaluation only while it is still the current one for its key (a newer click wins). */
  patchEval(key: string, full: string, patch: Partial<AblationEval>): void;
  setParams(key: string, values: Partial<Record<VariantKey, number>>): void;
}

export const useAblation = create<AblationState>((set) => ({
  evals: {},
  params: {},
  setEval: (key, e) => set((s) => ({ evals: { ...s.evals, [key]: e } })),
  patchEval: (key, full, patch) =>
    set((s) => (s.evals[key]?.full === full ? { evals: { ...s.evals, [key]: { ...s.evals[key]!, ...patch } } } : s)),
  setParams: (key, values) => set((s) => ({ params: { ...s.params, [key]: values } })),
}));
