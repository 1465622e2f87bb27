// Workbench state that outlives a reload or a restart: open view, theme, selected run and dataset,
// and per-view choices (usePersisted), the model builder's draft among them. It is kept in the
// engine's workspace (ui.state.get / ui.state.set -> <workspace>/.lino/ui-state.json), never in
// browser storage, so it follows the workspace. Loaded when the API connects (and when the
// workspace changes), saved debounced on every change; a damaged saved state is ignored (the host
// logs why).
import { useCallback } from 'react';
import { create } from 'zustand';
import type { UiState, WorkbenchApi } from '../../../main/api/contract';
import { useApp, type ViewName } from './app-store';
import { useTraining } from './training-store';
import { restoreDraft } from '../logic/model-draft';

const SAVE_DELAY_MS = 300;
const DRAFT_KEY = 'model.draft';

interface PersistedStore {
  /** True once the saved state of the current workspace has been read (or found missing). */
  loaded: boolean;
  /** Per-view choices by key (usePersisted); JSON values only. */
  views: Record<string, unknown>;
  setValue(key: string, value: unknown): void;
}

export const usePersistedStore = create<PersistedStore>((set) => ({
  loaded: false,
  views: {},
  setValue: (key, value) => set((s) => ({ views: { ...s.views, [key]: value } })),
}));

/**
 * A view's choice that persists across restarts, like useState: `const [split, setSplit] =
 * usePersisted('datasets.split', 'val', oneOf('train', 'val', 'test'))`. Keys are '<view>.<what>';
 * values must be JSON. A restored value comes from a file: `valid` (recommended) rejects what the
 * view cannot use, and the initial value is used instead.
 */
export function usePersisted<T>(key: string, initial: T, valid?: (v: unknown) => boolean): [T, (v: T | ((prev: T) => T)) => void] {
  const read = (views: Record<string, unknown>): T =>
    Object.prototype.hasOwnProperty.call(views, key) && (!valid || valid(views[key])) ? (views[key] as T) : initial;
  const value = usePersistedStore((s) => read(s.views));
  const setter = useCallback(
    (v: T | ((prev: T) => T)) => {
      const prev = read(usePersistedStore.getState().views);
      usePersistedStore.getState().setValue(key, typeof v === 'function' ? (v as (p: T) => T)(prev) : v);
    },
    // `initial` and `valid` are read only when nothing usable is stored: new literals each render must not matter.
    [key],
  );
  return [value, setter];
}

/** A `valid` check for usePersisted: one of these values. */
export function oneOf<T extends string | number | boolean>(...values: T[]): (v: unknown) => v is T {
  return (v: unknown): v is T => values.includes(v as T);
}

/** What is saved: everything the user chose, nothing the engine reports. */
export function snapshot(): UiState {
  const app = useApp.getState();
  return {
    view: app.view,
    theme: app.theme,
    selectedDataset: app.selectedDataset,
    selectedRun: useTraining.getState().selectedRun,
    views: usePersistedStore.getState().views,
  };
}

interface Choices {
  view: ViewName;
  theme: 'light' | 'dark';
  selectedDataset: string | null;
  selectedRun: string | null;
  views: Record<string, unknown>;
}

function choices(): Choices {
  const a = useApp.getState();
  return { view: a.view, theme: a.theme, selectedDataset: a.selectedDataset, selectedRun: useTraining.getState().selectedRun, views: usePersistedStore.getState().views };
}

/**
 * Puts a saved state back into the stores; each field is checked on its own, a bad one is skipped.
 * With `since` (the choices when loading began), a choice the user already changed meanwhile wins.
 */
export function applyState(state: UiState, since?: Choices): void {
  const app = useApp.getState();
  const now = choices();
  const free = (k: keyof Choices) => !since || since[k] === now[k];
  if (free('view') && typeof state.view === 'string' && viewIds.includes(state.view)) app.setView(state.view as ViewName);
  if (free('theme') && (state.theme === 'light' || state.theme === 'dark')) app.setTheme(state.theme);
  if (free('selectedDataset') && (typeof state.selectedDataset === 'string' || state.selectedDataset === null)) app.selectDataset(state.selectedDataset as string | null);
  if (state.views && typeof state.views === 'object' && !Array.isArray(state.views)) {
    // Per key: what a view set while loading stays.
    const changed = since ? Object.keys(now.views).filter((k) => now.views[k] !== since.views[k]) : [];
    usePersistedStore.setState({ views: { ...(state.views as Record<string, unknown>), ...Object.fromEntries(changed.map((k) => [k, now.views[k]])) } });
  }
  // The model builder's draft is kept under views['model.draft'] (written by startPersistence).
  const draft = restoreDraft(usePersistedStore.getState().views[DRAFT_KEY]);
  if (draft) app.setModelDraft(draft);
  if (typeof state.selectedRun === 'string') {
    const t = useTraining.getState();
    // Before the run list arrives the choice is kept (refreshRuns keeps a selection it finds);
    // after, only a run that still exists is selected (refreshRuns' own pick does not count as the user's).
    if (!t.runsLoaded || t.runs.some((r) => r.id === state.selectedRun)) t.selectRun(state.selectedRun);
  }
}

let api: WorkbenchApi | null = null;
let workspacePath: string | null = null;
let lastSaved = '';
let timer: ReturnType<typeof setTimeout> | null = null;
let generation = 0;

async function load(a: WorkbenchApi): Promise<void> {
  const gen = ++generation;
  // A save still pending from before (another workspace) must not land in this one.
  if (timer) clearTimeout(timer);
  timer = null;
  usePersistedStore.setState({ loaded: false });
  const since = choices();
  try {
    const r = await a.call('ui.state.get', {});
    if (gen !== generation) return;
    if (r.state) applyState(r.state, since);
    if (r.warning) console.warn(r.warning);
  } catch (e) {
    // Starting with defaults beats not starting: say why, carry on.
    useApp.getState().reportError('restoring the workbench state', e);
  } finally {
    if (gen === generation) {
      lastSaved = JSON.stringify(snapshot());
      usePersistedStore.setState({ loaded: true });
    }
  }
}

function scheduleSave(): void {
  if (!api || !usePersistedStore.getState().loaded) return;
  if (timer) clearTimeout(timer);
  timer = setTimeout(() => {
    timer = null;
    void saveNow();
  }, SAVE_DELAY_MS);
}

/** Saves at once when something changed since the last save (also used before the page unloads). */
export async function saveNow(): Promise<void> {
  if (!api || !usePersistedStore.getState().loaded) return;
  const state = snapshot();
  const text = JSON.stringify(state);
  if (text === lastSaved) return;
  lastSaved = text;
  try {
    await api.call('ui.state.set', { state });
  } catch (e) {
    lastSaved = '';
    useApp.getState().reportError('saving the workbench state', e);
  }
}

let started = false;
/** The views a saved state may open (views/index.ts VIEW_IDS, passed in by main.tsx). */
let viewIds: readonly string[] = [];

/** Follows the app's API connection and workspace: loads the saved state, then saves changes. */
export function startPersistence(views: readonly string[]): void {
  if (started) return;
  started = true;
  viewIds = views;
  const follow = (s = useApp.getState(), prev?: ReturnType<typeof useApp.getState>) => {
    if (s.api !== api) {
      api = s.api;
      workspacePath = s.workspace?.path ?? null;
      if (api) void load(api);
      return;
    }
    const path = s.workspace?.path ?? null;
    if (path && workspacePath && path !== workspacePath && api) {
      // Another workspace: its own saved state replaces this one's.
      workspacePath = path;
      void load(api);
      return;
    }
    if (path) workspacePath = path;
    // Only the user's choices: job and metrics events arrive many times a second and must not
    // keep postponing the save.
    if (prev && (s.view !== prev.view || s.theme !== prev.theme || s.selectedDataset !== prev.selectedDataset)) scheduleSave();
  };
  useApp.subscribe((s, prev) => follow(s, prev));
  useTraining.subscribe((s, prev) => {
    if (s.selectedRun !== prev.selectedRun) scheduleSave();
  });
  usePersistedStore.subscribe((s, prev) => {
    if (s.views !== prev.views) scheduleSave();
  });
  // The Model view's draft survives a reload like any view's choice (only once the saved one is read).
  useApp.subscribe((s, prev) => {
    if (s.modelDraft !== prev.modelDraft && usePersistedStore.getState().loaded) usePersistedStore.getState().setValue(DRAFT_KEY, s.modelDraft);
  });
  // A last save when the page goes away (reload, window closed); absent in Node (store tests).
  const target = globalThis as { addEventListener?: (type: string, f: () => void) => void };
  target.addEventListener?.('pagehide', () => void saveNow());
  follow();
}
