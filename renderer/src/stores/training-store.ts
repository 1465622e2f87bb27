// Runs and their curves for the Training, Gates and Runs views (zustand). It mirrors what the
// engine reports: the run list (runs.list), live `metrics` / `run` events, and the history read
// back with runs.metrics when a run is (re)opened. Nothing is stored in the browser.
import { create } from 'zustand';
import type { Params, RunSummary, WorkbenchApi, WorkbenchEvent } from '../../../main/api/contract';
import { requireApi, useApp } from './app-store';
import { EMPTY_CURVES, mergeCurves, type RunCurves } from '../logic/run-metrics';
import { errorText } from '../api/error-text';

export interface TrainingState {
  runs: RunSummary[];
  runsLoaded: boolean;
  /** The run the Training and Gates views show. */
  selectedRun: string | null;
  curves: Record<string, RunCurves>;
  /** Runs whose history has been read (so live events can be trusted to continue it). */
  historyLoaded: Record<string, boolean>;
  /** Per run, the last error of an action on it (pause, resume, ...), shown next to its controls. */
  runErrors: Record<string, string>;
  /** Per run, the engine's ETA from its step rate (metrics events; null before its 3rd step). */
  stepEta: Record<string, number | null>;
  selectRun(id: string | null): void;
  refreshRuns(): Promise<void>;
  loadHistory(id: string): Promise<void>;
  start(params: Params<'train.start'>): Promise<string>;
  control(id: string, action: 'pause' | 'resume' | 'stop'): Promise<void>;
  deleteRun(id: string): Promise<void>;
  /** Stores a run's notes and/or tags (runs.annotate) and shows them at once. */
  annotate(id: string, patch: { notes?: string; tags?: string[] }): Promise<void>;
  applyEvent(e: WorkbenchEvent): void;
}

const api = requireApi;


let refreshTimer: ReturnType<typeof setTimeout> | null = null;
// Run states from events, numbered: a runs.list answer requested before an event must not undo it.
let eventSeq = 0;
const eventStates = new Map<string, { seq: number; state: RunSummary['state'] }>();
const loading = new Map<string, Promise<void>>();

export const useTraining = create<TrainingState>((set, get) => ({
  runs: [],
  runsLoaded: false,
  selectedRun: null,
  curves: {},
  historyLoaded: {},
  runErrors: {},
  stepEta: {},
  selectRun(id) {
    set({ selectedRun: id });
    if (id) void get().loadHistory(id);
  },
  async refreshRuns() {
    try {
      const asked = eventSeq;
      const runs = (await api().call('runs.list', {})).map((r) => {
        const ev = eventStates.get(r.id);
        // Pause and resume are announced at once but reach status.json only at the next step
        // boundary, so between running and paused the engine's last event is the fresher word.
        const live = (s: string) => s === 'running' || s === 'paused';
        return ev && (ev.seq > asked || (live(ev.state) && live(r.state))) ? { ...r, state: ev.state } : r;
      });
      runs.sort((a, b) => b.createdAt.localeCompare(a.createdAt));
      set({ runs, runsLoaded: true });
      const sel = get().selectedRun;
      if (!sel || !runs.some((r) => r.id === sel)) {
        const pick = runs.find((r) => r.state === 'running') ?? runs[0];
        if (pick) get().selectRun(pick.id);
        else set({ selectedRun: null });
      }
    } catch (e) {
      useApp.getState().reportError('listing runs', e);
    }
  },
  loadHistory(id) {
    const pending = loading.get(id);
    if (pending) return pending;
    const p = (async () => {
      try {
        // Offset-based: read what is stored in pages; events that arrive meanwhile merge by key.
        let offset = 0;
        for (;;) {
          const r = await api().call('runs.metrics', { id, offset, type: 'all' });
          const steps = r.records.filter((x) => x.type === 'step');
          const epochs = r.records.filter((x) => x.type === 'epoch');
          set((s) => ({ curves: { ...s.curves, [id]: mergeCurves(s.curves[id] ?? EMPTY_CURVES, steps as never, epochs as never) } }));
          if (r.records.length === 0 || r.next <= offset) break;
          offset = r.next;
        }
        set((s) => ({ historyLoaded: { ...s.historyLoaded, [id]: true } }));
      } catch (e) {
        set((s) => ({ runErrors: { ...s.runErrors, [id]: `Reading the metrics failed: ${errorText(e)}` } }));
      } finally {
        loading.delete(id);
      }
    })();
    loading.set(id, p);
    return p;
  },
  async start(params) {
    // A run queued behind one that trains: the picker stays on the one training.
    const training = get().runs.find((x) => x.state === 'running' || x.state === 'paused');
    const r = await api().call('train.start', params);
    set((s) => ({ curves: { ...s.curves, [r.runId]: s.curves[r.runId] ?? EMPTY_CURVES }, historyLoaded: { ...s.historyLoaded, [r.runId]: true } }));
    await get().refreshRuns();
    const now = get().runs.find((x) => x.id === r.runId);
    // with a free training slot (several on a machine with many cores) its job already runs: the
    // run is not queued behind the other, even while its data are still being prepared
    const started = useApp.getState().jobs[r.job.id]?.state === 'running';
    if (!training || now?.state === 'running' || started) get().selectRun(r.runId);
    else get().selectRun(training.id);
    void useApp.getState().refreshWorkspace();
    return r.runId;
  },
  async control(id, action) {
    set((s) => {
      const { [id]: _, ...rest } = s.runErrors;
      return { runErrors: rest };
    });
    try {
      const r = await api().call(`train.${action}`, { id });
      if (!r.ok) throw new Error(`the engine refused to ${action} this run`);
    } catch (e) {
      set((s) => ({ runErrors: { ...s.runErrors, [id]: `Could not ${action}: ${errorText(e)}` } }));
    }
    await get().refreshRuns();
  },
  async deleteRun(id) {
    await api().call('runs.delete', { id });
    set((s) => {
      const { [id]: _, ...curves } = s.curves;
      return { curves, selectedRun: s.selectedRun === id ? null : s.selectedRun };
    });
    await get().refreshRuns();
    void useApp.getState().refreshWorkspace();
  },
  async annotate(id, patch) {
    const m = await api().call('runs.annotate', { id, ...patch });
    set((s) => ({ runs: s.runs.map((r) => (r.id === id ? { ...r, notes: m.notes || undefined, tags: m.tags.length > 0 ? m.tags : undefined } : r)) }));
  },
  applyEvent(e) {
    if (e.type === 'metrics') {
      queueMetrics(e, get, set);
    } else if (e.type === 'run') {
      // A state change must not overtake the steps that came before it.
      flushMetrics(get, set);
      eventStates.set(e.runId, { seq: ++eventSeq, state: e.state });
      set((s) => ({ runs: s.runs.map((r) => (r.id === e.runId ? { ...r, state: e.state, reason: e.reason ?? r.reason } : r)) }));
      scheduleRefresh(get);
    }
  },
}));

type MetricsEvent = Extract<WorkbenchEvent, { type: 'metrics' }>;
type SetTraining = (fn: (s: TrainingState) => Partial<TrainingState>) => void;

// A fast run sends up to 20 metrics messages a second; redrawing four plots for each kept a loaded
// machine's page too busy to take a click. Messages are merged and applied at most 4 times a second.
const FLUSH_MS = 250;
let pendingMetrics: MetricsEvent[] = [];
let flushTimer: ReturnType<typeof setTimeout> | null = null;

function queueMetrics(e: MetricsEvent, get: () => TrainingState, set: SetTraining) {
  pendingMetrics.push(e);
  if (!flushTimer) flushTimer = setTimeout(() => flushMetrics(get, set), FLUSH_MS);
}

function flushMetrics(get: () => TrainingState, set: SetTraining) {
  if (flushTimer) clearTimeout(flushTimer);
  flushTimer = null;
  const batch = pendingMetrics;
  pendingMetrics = [];
  if (batch.length === 0) return;
  set((s) => {
    const curves = { ...s.curves };
    const stepEta = { ...s.stepEta };
    for (const e of batch) {
      curves[e.runId] = mergeCurves(curves[e.runId] ?? EMPTY_CURVES, e.steps, e.epoch ? [e.epoch] : []);
      // Paused, the ETA stands still: a step's message that trails the pause does not move it.
      if (e.etaSeconds !== undefined && s.runs.find((r) => r.id === e.runId)?.state !== 'paused') stepEta[e.runId] = e.etaSeconds;
    }
    return { curves, stepEta };
  });
  // Metrics mean it trains; the list may not know yet (or the epoch count changed).
  if (batch.some((e) => e.epoch || get().runs.find((r) => r.id === e.runId)?.state !== 'running')) scheduleRefresh(get);
}

/** Run events come in bursts (queued, running, ...): one runs.list per burst. */
function scheduleRefresh(get: () => TrainingState) {
  if (refreshTimer) return;
  refreshTimer = setTimeout(() => {
    refreshTimer = null;
    void get().refreshRuns();
    void useApp.getState().refreshWorkspace();
  }, 250);
}

// Follow the app's API connection: subscribe to its events once per connection.
let unsubscribe: (() => void) | null = null;
let connectedApi: WorkbenchApi | null = null;
function follow(a: WorkbenchApi | null) {
  if (a === connectedApi) return;
  unsubscribe?.();
  connectedApi = a;
  unsubscribe = a ? a.onEvent((e) => useTraining.getState().applyEvent(e)) : null;
  if (a) void useTraining.getState().refreshRuns();
}
follow(useApp.getState().api);
useApp.subscribe((s) => follow(s.api));
