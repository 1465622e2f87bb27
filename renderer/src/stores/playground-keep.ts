// The Playground's dataset-sample input and "keep what you found": pick one of the run's
// val/test samples (playground.sample: its input, its stored truth shown as the truth), compare the
// solver's truth with the stored one, export the shown arrays as .npy (playground.export) and append
// the pair to an existing dataset (playground.save with `into`). Views only draw this.
import { create } from 'zustand';
import type { PlaygroundTruth } from '../../../main/api/contract';
import { errorText } from '../api/error-text';
import { plural } from '../../../main/api/dataset-name';
import { useApp } from './app-store';
import { datasetNameById } from '../queries/dataset-names';
import { usePlayground } from './playground';

export interface PlaygroundKeepState {
  /** The sample shown, while the input is still it (painting clears it). */
  sample: { split: 'val' | 'test'; index: number; count: number; version: number } | null;
  /** relL2 of the solver's truth against the stored truth of the sample, once solved. */
  solverVsStored: { relL2: number; solver: string } | null;
  comparing: boolean;
  exported: string | null;
  appended: string | null;
  error: string | null;
  /** The workspace datasets a sample of the run on `grid` can be appended to, and why the others cannot (playground.appendable). */
  appendable: { runId: string; grid: string; datasets: { id: string; refusal: string | null }[] } | null;
  loadAppendable(): Promise<void>;
  pickSample(split: 'val' | 'test', index: number): Promise<void>;
  compareSolver(): Promise<void>;
  exportArrays(name: string): Promise<void>;
  appendTo(datasetId: string, split: 'train' | 'val' | 'test'): Promise<void>;
}

const truthOf = () => {
  const { truth, input } = usePlayground.getState();
  return truth && input && truth.grid.join() === input.grid.join() ? { grid: truth.grid, channels: truth.truth } : undefined;
};

/** The workspace's datasets (by their listed names) that playground.appendable answered for this run and grid as taking the sample. */
export function appendableDatasets<D extends { id: string }>(appendable: PlaygroundKeepState['appendable'], runId: string | null, grid: string, datasets: D[]): D[] {
  if (!appendable || appendable.runId !== runId || appendable.grid !== grid) return [];
  const ok = new Set(appendable.datasets.filter((d) => !d.refusal).map((d) => d.id));
  return datasets.filter((d) => ok.has(d.id));
}

/** Why the list is as short as it is. */
export function appendNote(offered: number, refused: number): string {
  const why = 'another benchmark or grid, a prepared cache, or the data of a run (appending would change what it was trained on)';
  if (!offered) return `No dataset can take this sample${refused ? ` (${plural(refused, 'dataset')} left out: ${why})` : ''}: save it as a new dataset above.`;
  return refused ? `${plural(refused, 'other dataset')} left out: ${why}.` : '';
}

/** What an append says: the dataset by its name, the split and its new count ("1 sample"). */
export function appendedText(dataset: string, split: string, samples: number | undefined): string {
  return `Added to ${dataset} (${split} split: ${samples === undefined ? 'count unknown' : `now ${plural(samples, 'sample')}`})`;
}

export function relL2Between(a: number[], b: number[]): number {
  let num = 0, den = 0;
  for (let i = 0; i < b.length; i++) { num += (a[i]! - b[i]!) ** 2; den += b[i]! ** 2; }
  return Math.sqrt(num) / (Math.sqrt(den) + 1e-12);
}

export const usePlaygroundKeep = create<PlaygroundKeepState>((set, get) => {
  const api = () => useApp.getState().api;
  let compareJob: string | null = null;
  useApp.subscribe((s) => {
    const j = compareJob ? s.jobs[compareJob] : undefined;
    if (!j || !['done', 'failed', 'cancelled'].includes(j.state)) return;
    compareJob = null;
    const stored = get().sample && get().sample!.version === usePlayground.getState().version ? truthOf() : undefined;
    if (j.state === 'done' && stored) {
      const t = j.result as PlaygroundTruth;
      set({ comparing: false, solverVsStored: { relL2: relL2Between(t.truth[0]!, stored.channels[0]!), solver: t.solver } });
    } else set({ comparing: false, ...(j.state === 'failed' ? { error: j.error ?? 'the solver failed' } : {}) });
  });
  return {
    sample: null, solverVsStored: null, comparing: false, exported: null, appended: null, error: null, appendable: null,
    async loadAppendable() {
      const a = api();
      const { runId, input } = usePlayground.getState();
      if (!a || !runId || !input) return;
      try {
        const r = await a.call('playground.appendable', { id: runId, grid: input.grid });
        set({ appendable: { runId, grid: input.grid.join(), datasets: r.datasets } });
      } catch (e) {
        set({ appendable: null, error: errorText(e) });
      }
    },
    async pickSample(split, index) {
      const a = api();
      const { runId } = usePlayground.getState();
      if (!a || !runId) return;
      try {
        const s = await a.call('playground.sample', { id: runId, split, index });
        usePlayground.getState().useSample(s.input, { grid: s.truth.grid, truth: s.truth.channels, solver: `stored truth of ${split} sample ${index}`, ms: 0 });
        set({ sample: { split, index, count: s.count, version: usePlayground.getState().version }, solverVsStored: null, error: null, exported: null, appended: null });
      } catch (e) {
        set({ error: errorText(e) });
      }
    },
    async compareSolver() {
      const a = api();
      const { runId, input } = usePlayground.getState();
      if (!a || !runId || !input) return;
      set({ comparing: true, solverVsStored: null });
      try {
        compareJob = (await a.call('playground.solve', { id: runId, input })).id;
      } catch (e) {
        set({ comparing: false, error: errorText(e) });
      }
    },
    async exportArrays(name) {
      const a = api();
      const { runId, input } = usePlayground.getState();
      if (!a || !runId || !input) return;
      const truth = truthOf();
      try {
        const r = await a.call('playground.export', { id: runId, input, ...(truth ? { truth } : {}), name });
        set({ exported: `exports/${r.folder}: ${r.files.join(', ')}`, error: null });
      } catch (e) {
        set({ error: errorText(e) });
      }
    },
    async appendTo(datasetId, split) {
      const a = api();
      const { runId, input } = usePlayground.getState();
      const truth = truthOf();
      if (!a || !runId || !input || !truth) return;
      try {
        const r = await a.call('playground.save', { id: runId, input, truth, into: datasetId, split });
        set({ appended: appendedText(datasetNameById(useApp.getState().workspace, r.datasetId), split, r.samples), error: null });
        void useApp.getState().refreshWorkspace();
      } catch (e) {
        set({ error: errorText(e) });
      }
    },
  };
});
