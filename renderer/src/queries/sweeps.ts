// The Sweeps view's reads and actions: the list of sweeps and one sweep's detail (re-read every
// second while it runs, otherwise only when its line in the list changes), starting one from its sweep.json text, pause / resume / stop, training the
// best configuration fully (train.start with the epochs, seeds and name asked for) and comparing configurations in the Runs view.
import { useEffect, useMemo, useState } from 'react';
import type { SweepDetail, SweepSummary } from '../../../main/api/contract';
import { errorText } from '../api/error-text';
import { useApp } from '../stores/app-store';
import { useQuery } from './use-query';
import { usePersistedStore } from '../stores/persisted-state';
import { trainBestRequest, type TrainBestForm } from '../logic/sweep-form';

/** A counter that advances every `ms` while `on` (a re-read's key). */
export function useTicker(ms: number, on: boolean): number {
  const [tick, setTick] = useState(0);
  useEffect(() => {
    if (!on) return;
    const t = setInterval(() => setTick((k) => k + 1), ms);
    return () => clearInterval(t);
  }, [ms, on]);
  return tick;
}

/** The same object as long as its content is the same: a re-read that changed nothing redraws nothing. */
function useStable<T>(value: T | null): T | null {
  const text = value === null ? '' : JSON.stringify(value);
  // the text stands for the value
  return useMemo(() => value, [text]);
}

export function useSweepList(tick: number): { sweeps: SweepSummary[] | null; error: string | null } {
  const q = useQuery(`sweeps.list:${tick}`, (a) => a.call('sweeps.list', {}), { keep: true });
  return { sweeps: useStable(q.value), error: q.error ? `Could not list the sweeps: ${q.error}` : null };
}

/**
 * The chosen sweep's detail: re-read each second while it runs (the running trial's epochs and wall
 * time), and otherwise when its summary in the list changes (an engine that died, a resume elsewhere)
 * or `bump` does (an action of the view).
 */
export function useSweepDetail(id: string | null, summary: SweepSummary | null, bump: number): { detail: SweepDetail | null; error: string | null } {
  const active = summary?.active ?? false;
  const tick = useTicker(1000, active);
  const version = summary ? JSON.stringify(summary) : '';
  const q = useQuery(id ? `sweeps.get:${id}:${bump}:${active ? tick : version}` : null, (a) => a.call('sweeps.get', { id: id! }), { keep: true });
  const detail = useStable(q.value);
  return { detail: detail && detail.summary.id === id ? detail : null, error: q.error ? `Could not read the sweep: ${q.error}` : null };
}

/** Starts (or resumes: the same text is the same sweep) a sweep from its sweep.json text. */
export async function startSweep(text: string): Promise<{ id: string } | { error: string }> {
  const api = useApp.getState().api;
  if (!api) return { error: 'Could not start the sweep: not connected to the workbench' };
  let config: unknown;
  try {
    config = JSON.parse(text);
  } catch (e) {
    return { error: `Could not start the sweep: sweep.json is not JSON (${errorText(e)})` };
  }
  if (!config || typeof config !== 'object' || Array.isArray(config)) return { error: 'Could not start the sweep: sweep.json: expected an object' };
  try {
    return { id: (await api.call('sweeps.start', { config: config as Record<string, unknown> })).id };
  } catch (e) {
    return { error: `Could not start the sweep: ${errorText(e)}` };
  }
}

export async function controlSweep(id: string, action: 'pause' | 'resume' | 'stop'): Promise<string | null> {
  const api = useApp.getState().api;
  if (!api) return 'not connected to the workbench';
  try {
    await api.call('sweeps.control', { id, action });
    return null;
  } catch (e) {
    return `Could not ${action} the sweep: ${errorText(e)}`;
  }
}

/** Trains the best configuration with the epochs, seeds and name asked for (sweep-form.ts) as a new run group; its first run id. */
export async function trainBest(d: SweepDetail, form: TrainBestForm): Promise<string> {
  const api = useApp.getState().api;
  if (!api) throw new Error('not connected to the workbench');
  const best = d.analysis.best;
  if (!best) throw new Error('no configuration has finished yet');
  const req = trainBestRequest(d.config.base as Record<string, unknown>, best.params, form);
  const r = await api.call('train.start', { config: req.config as never, seeds: req.seeds });
  return r.runId;
}

/** Opens the Runs view with the best `k` configurations (their seed groups) picked for the overlay. */
export function compareInRuns(d: SweepDetail, k = 4): void {
  const ranked = d.analysis.configs.filter((c) => c.mean !== null).sort((a, b) => a.mean! - b.mean!).slice(0, k);
  // a configuration of several seeds is its seed group (a preset's own, as the ablation's
  // '<key>/<variant>', else '<sweep>-c<k>'); one of one seed is its run
  const groups = Array.isArray(d.config.groups) ? (d.config.groups as { group?: unknown }[]) : [];
  const keys = ranked.map((c) => {
    const trials = d.state.trials.filter((t) => t.config === c.config);
    return trials.length > 1 ? `group:${typeof groups[c.config]?.group === 'string' ? groups[c.config]!.group : `${d.state.id}-c${c.config}`}` : `run:${trials[0]!.runId}`;
  });
  usePersistedStore.getState().setValue('runs.overlay', keys);
  useApp.getState().setView('runs');
}

/** A small sweep to start from: a 2x2 grid on synthetic data with 2 seeds. */
export const SWEEP_TEMPLATE = JSON.stringify({
  name: 'grid-demo',
  base: { data: { kind: 'synthetic', grid: [16], train: 8, val: 2 }, model: { width: 4, depth: 1 }, epochs: 2, batchSize: 4 },
  axes: [{ path: 'model.width', values: [4, 8] }, { path: 'optimizer.lr', values: [0.001, 0.01] }],
  method: 'grid', seeds: 2,
}, null, 2);
