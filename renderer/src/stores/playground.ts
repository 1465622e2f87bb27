// The Playground: the input being painted, the run's prediction for it (playground.predict,
// answered in the call; while painting, one at a time, the latest input next), the solver's truth
// (a playground-solve job, started a moment after painting stops, an older one cancelled) with
// relL2 against the prediction, and saving the pair as a one-sample dataset. Views only draw this.
import { create } from 'zustand';
import type { PlaygroundAnswer, PlaygroundFields, PlaygroundTruth, PlaygroundVortex } from '../../../main/api/contract';
import { errorText } from '../api/error-text';
import { useApp } from './app-store';
import { brush, resample } from '../logic/playground-fields';
import { useQuery } from '../queries/use-query';

/** Wait after the last stroke before the solver starts (each stroke would otherwise queue a solve). */
export const SOLVE_DEBOUNCE_MS = 400;

export interface PlaygroundState {
  runId: string | null;
  input: PlaygroundFields | null;
  /** Bumped on every change of the input: answers for an older one are dropped. */
  version: number;
  /** The prediction of the current input with its diagnostics (physics; with a truth, the error spectrum). */
  prediction: PlaygroundAnswer | null;
  /** The truth of the current input (null while it is being solved). */
  truth: PlaygroundTruth | null;
  solving: boolean;
  predicting: boolean;
  error: string | null;
  saved: string | null;
  /** The truth's relL2, from playground.predict with the truth (null until both are in). */
  relL2: number | null;
  /** Navier-Stokes and airfoil: the model's input comes from the solver (the history, the mesh), so the solve goes first. */
  solveFirst: boolean;
  /** Airfoil: the 8 design-node displacements being shaped (the input is then the solver's mesh). */
  design: number[] | null;
  setSolveFirst(v: boolean): void;
  /** Airfoil: new design nodes; solved (mesh and flow) once dragging pauses, then predicted on the mesh. */
  setDesign(design: number[]): void;
  setRun(id: string | null): void;
  /** A fresh input at the run's own grid (then setResolution resamples it). */
  draw(o: { seed: number; tau?: number; threshold?: number; vortices?: PlaygroundVortex[] }): Promise<void>;
  paint(i: number, j: number, radius: number, value: number): void;
  setResolution(n: number): void;
  save(name: string): Promise<void>;
  /** LiNO runs: ask each prediction for its light maps too (playground.predict lightMaps). */
  withLightMaps: boolean;
  setWithLightMaps(on: boolean): void;
  /** A dataset sample as the input, its stored truth as the truth (no solve); painting then solves as usual. */
  useSample(input: PlaygroundFields, truth: PlaygroundTruth): void;
}

let predictInFlight = false;
let solveTimer: ReturnType<typeof setTimeout> | null = null;
let solveJob: { id: string; version: number } | null = null;

export const usePlayground = create<PlaygroundState>((set, get) => {
  const api = () => useApp.getState().api;

  /** One prediction at a time; when it answers and the input changed meanwhile, the latest one next. */
  async function predict(): Promise<void> {
    const a = api();
    const { runId, version, truth } = get();
    // solved first: the model's input is the one the solver made (Navier-Stokes history, airfoil mesh)
    const input = get().solveFirst ? (truth?.input ? { grid: truth.grid, channels: truth.input } : null) : get().input;
    if (!a || !runId || !input || predictInFlight) return;
    predictInFlight = true;
    set({ predicting: true });
    try {
      const withTruth = truth && truth.grid.join() === input.grid.join() ? { truth: { grid: truth.grid, channels: truth.truth } } : {};
      const p = await a.call('playground.predict', { id: runId, input, ...withTruth, ...(get().withLightMaps ? { lightMaps: true } : {}) });
      if (get().version === version) set({ prediction: p, relL2: p.relL2, error: null });
    } catch (e) {
      if (get().version === version) set({ error: errorText(e) });
    } finally {
      predictInFlight = false;
      set({ predicting: false });
      if (get().version !== version) void predict();
    }
  }

  async function solve(): Promise<void> {
    const a = api();
    const { runId, input, version, design } = get();
    if (!a || !runId || (!input && !design)) return;
    if (solveJob) void a.call('jobs.cancel', { id: solveJob.id }).catch(() => undefined);
    try {
      const job = await a.call('playground.solve', design ? { id: runId, design } : { id: runId, input: input! });
      solveJob = { id: job.id, version };
    } catch (e) {
      if (get().version === version) set({ solving: false, error: errorText(e) });
    }
  }

  /** A new input: predict at once, solve once painting pauses. */
  function changed(input: PlaygroundFields) {
    // solved first: the old prediction belongs to the old truth, so it goes with it
    set((s) => ({ input, version: s.version + 1, truth: null, relL2: null, saved: null, solving: true, ...(s.solveFirst ? { prediction: null } : {}) }));
    void predict();
    if (solveTimer) clearTimeout(solveTimer);
    solveTimer = setTimeout(() => void solve(), SOLVE_DEBOUNCE_MS);
  }

  // The solve job's end arrives as a job event (app store): its truth, then relL2 with the prediction.
  useApp.subscribe((s) => {
    const j = solveJob && s.jobs[solveJob.id];
    if (!j || !solveJob || !['done', 'failed', 'cancelled'].includes(j.state)) return;
    const mine = solveJob.version === get().version;
    solveJob = null;
    if (!mine) return;
    if (j.state === 'done') {
      set({ truth: j.result as PlaygroundTruth, solving: false });
      void predict();
    } else set({ solving: false, ...(j.state === 'failed' ? { error: j.error ?? 'the solver failed' } : {}) });
  });

  return {
    runId: null, input: null, version: 0, prediction: null, truth: null, solving: false, predicting: false, error: null, saved: null, relL2: null, solveFirst: false, design: null,
    withLightMaps: false,
    setWithLightMaps(on) {
      set((s) => ({ withLightMaps: on, version: s.version + 1 }));
      void predict();
    },
    useSample(input, truth) {
      if (solveTimer) clearTimeout(solveTimer);
      solveJob = null;
      set((s) => ({ input, truth, version: s.version + 1, relL2: null, saved: null, solving: false, error: null }));
      void predict();
    },
    setRun(id) {
      if (id === get().runId) return;
      // light maps are asked for again per run (an FNO or DeepONet run refuses them)
      set((s) => ({ runId: id, input: null, design: null, prediction: null, truth: null, relL2: null, error: null, saved: null, version: s.version + 1, withLightMaps: false }));
    },
    setSolveFirst(v) {
      if (v !== get().solveFirst) set({ solveFirst: v });
    },
    setDesign(design) {
      set((s) => ({ design, version: s.version + 1, truth: null, prediction: null, relL2: null, saved: null, solving: true }));
      if (solveTimer) clearTimeout(solveTimer);
      solveTimer = setTimeout(() => void solve(), SOLVE_DEBOUNCE_MS);
    },
    async draw(o) {
      const a = api();
      const { runId } = get();
      if (!a || !runId) return;
      try {
        changed(await a.call('playground.draw', { id: runId, ...o }));
      } catch (e) {
        set({ error: errorText(e) });
      }
    },
    paint(i, j, radius, value) {
      const { input } = get();
      if (input) changed(brush(input, i, j, radius, value));
    },
    setResolution(n) {
      const { input } = get();
      if (input && input.grid[0] !== n) changed(resample(input, n));
    },
    async save(name) {
      const a = api();
      const { runId, truth } = get();
      const input = get().solveFirst ? (truth?.input ? { grid: truth.grid, channels: truth.input } : null) : get().input;
      if (!a || !runId || !input || !truth) return;
      try {
        const r = await a.call('playground.save', { id: runId, input, truth: { grid: truth.grid, channels: truth.truth }, name });
        set({ saved: r.datasetId, error: null });
        void useApp.getState().refreshWorkspace();
      } catch (e) {
        set({ error: errorText(e) });
      }
    },
  };
});

/** The run's kept validation evaluation (runs.evaluation, best checkpoint): its samples' relL2 (decoded), or null when none is kept. */
export function usePlaygroundValidation(runId: string | null): number[] | null {
  const q = useQuery(runId ? `pg-val|${runId}` : null, (a) => a.call('runs.evaluation', { id: runId!, checkpoint: 'best', split: 'val' }));
  const r = q.value?.resolutions[0];
  return r ? r.perSample.map((p) => p.relL2Decoded) : null;
}
