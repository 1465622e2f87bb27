// Workbench state for the views (zustand). Data itself lives in the engine's workspace;
// this store only mirrors what the API reports and what the user selected.
import { create } from 'zustand';
import type { EngineInfo, HostInfo, JobSummary, ModelEstimate, WorkbenchApi, WorkbenchEvent, WorkspaceSummary } from '../../../main/api/contract';
import { DEFAULT_DRAFT, draftGrid, draftToConfig, validateDraft, type ModelDraft } from '../logic/model-draft';
import { errorText } from '../api/error-text';

/**
 * Filled in by the view registry (views/index.ts declares `ids`), so the renderer checks view ids
 * against the registered views. This store does not import the registry: code checked or run in
 * Node (store tests) never loads the views.
 */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type
export interface ViewRegistry {}
export type ViewName = ViewRegistry extends { ids: infer I extends string } ? I : string;

export interface EngineStatus {
  state: 'starting' | 'ready' | 'crashed' | 'restarting' | 'unknown';
  detail?: string;
}

export interface AppState {
  api: WorkbenchApi | null;
  view: ViewName;
  host: HostInfo | null;
  engine: EngineInfo | null;
  engineStatus: EngineStatus;
  workspace: WorkspaceSummary | null;
  jobs: Record<string, JobSummary>;
  errors: { id: number; where: string; message: string }[];
  theme: 'light' | 'dark';
  /** The model builder's configuration; the Training view starts runs from it. */
  modelDraft: ModelDraft;
  /** The dataset the Datasets view previews. */
  selectedDataset: string | null;
  selectDataset(id: string | null): void;
  modelEstimate: { forDraft: ModelDraft; result: ModelEstimate | null; error: string | null; pending: boolean } | null;
  setModelDraft(d: ModelDraft): void;
  estimateModel(): Promise<void>;
  setView(v: ViewName): void;
  setTheme(t: 'light' | 'dark'): void;
  connect(api: WorkbenchApi): Promise<void>;
  refreshWorkspace(): Promise<void>;
  refreshEngine(): Promise<void>;
  reportError(where: string, e: unknown): void;
  dismissError(id: number): void;
  /** Opens another workspace folder (a file reference from a dialog or the file browser). */
  openWorkspace(ref: string): Promise<void>;
  /** Starts the engine self-test job (a few training steps on random data). */
  startSelfTest(): Promise<void>;
  /** Restarts the engine after a crash. */
  restartEngine(): Promise<void>;
  /** Cancels an engine job; a cancel that races the job's end is harmless (the job ends either way). */
  cancelJob(id: string): Promise<void>;
  applyEvent(e: WorkbenchEvent): void;
}

let errorId = 1;

export const useApp = create<AppState>((set, get) => ({
  api: null,
  view: 'workspace',
  host: null,
  engine: null,
  engineStatus: { state: 'unknown' },
  workspace: null,
  jobs: {},
  errors: [],
  theme: 'light',
  modelDraft: DEFAULT_DRAFT,
  modelEstimate: null,
  selectedDataset: null,
  selectDataset: (selectedDataset) => set({ selectedDataset }),
  setModelDraft: (modelDraft) => set({ modelDraft }),
  async estimateModel() {
    const { api, modelDraft: draft } = get();
    if (!api) return;
    if (Object.keys(validateDraft(draft)).length > 0) {
      set({ modelEstimate: null });
      return;
    }
    set((s) => ({ modelEstimate: { forDraft: draft, result: s.modelEstimate?.result ?? null, error: null, pending: true } }));
    try {
      const result = await api.call('model.estimate', { config: draftToConfig(draft), grid: draftGrid(draft), batch: draft.batch, coordinates: draft.coordinates });
      // A slower answer for an older draft must not overwrite a newer one.
      if (get().modelDraft === draft) set({ modelEstimate: { forDraft: draft, result, error: null, pending: false } });
    } catch (e) {
      if (get().modelDraft === draft) set({ modelEstimate: { forDraft: draft, result: null, error: errorText(e), pending: false } });
    }
  },
  setView: (view) => set({ view }),
  setTheme: (theme) => set({ theme }),
  async connect(api) {
    set({ api });
    api.onEvent((e) => get().applyEvent(e));
    try {
      const host = await api.call('host.info', {});
      set({ host });
      await Promise.all([get().refreshWorkspace(), get().refreshEngine()]);
      const jobs = await api.call('jobs.list', {});
      set({ jobs: Object.fromEntries(jobs.map((j) => [j.id, j])) });
    } catch (e) {
      get().reportError('connecting to the workbench', e);
    }
  },
  async refreshWorkspace() {
    const api = get().api;
    if (!api) return;
    try {
      set({ workspace: await api.call('workspace.get', {}) });
    } catch (e) {
      get().reportError('reading the workspace', e);
    }
  },
  async refreshEngine() {
    const api = get().api;
    if (!api) return;
    try {
      const engine = await api.call('engine.info', {});
      set({ engine, engineStatus: { state: 'ready' } });
    } catch (e) {
      get().reportError('asking the engine', e);
    }
  },
  reportError(where, e) {
    const message = errorText(e);
    set((s) => ({ errors: [...s.errors.slice(-4), { id: errorId++, where, message }] }));
  },
  dismissError: (id) => set((s) => ({ errors: s.errors.filter((x) => x.id !== id) })),
  async openWorkspace(ref) {
    try {
      await get().api?.call('workspace.open', { dir: ref });
      await get().refreshWorkspace();
    } catch (e) {
      get().reportError('opening a workspace', e);
    }
  },
  async startSelfTest() {
    try {
      await get().api?.call('jobs.start', { kind: 'selftest', params: { steps: 30, size: 128 } });
    } catch (e) {
      get().reportError('starting the engine self-test', e);
    }
  },
  async restartEngine() {
    try {
      await get().api?.call('engine.restart', {});
      await get().refreshEngine();
    } catch (e) {
      get().reportError('restarting the engine', e);
    }
  },
  async cancelJob(id) {
    await get().api?.call('jobs.cancel', { id }).catch(() => undefined);
  },
  applyEvent(e) {
    if (e.type === 'job') {
      const before = get().jobs[e.job.id]?.state;
      set((s) => ({ jobs: { ...s.jobs, [e.job.id]: e.job } }));
      // A finished generation adds a dataset: show it without a manual refresh.
      if ((e.job.kind === 'generate' || e.job.kind === 'import') && e.job.state === 'done' && before !== 'done') void get().refreshWorkspace();
    }
    else if (e.type === 'engine') set({ engineStatus: { state: e.state, detail: e.detail } });
    else if (e.type === 'log' && e.level === 'error') get().reportError('engine', new Error(e.message));
  },
}));

/** The connected API for a store's call; throws (the view shows it) before the host has connected. */
export function requireApi(): WorkbenchApi {
  const a = useApp.getState().api;
  if (!a) throw new Error('not connected to the workbench');
  return a;
}
