// The WorkbenchApi as both hosts serve it: validates every call against the contract,
// answers host-level calls (workspace, files) itself and forwards compute to the engine process.
import { realpathSync, readdirSync, statSync } from 'node:fs';
import { homedir } from 'node:os';
import { join, relative, resolve, sep, dirname } from 'node:path';
import {
  ApiError,
  isMethod,
  methods,
  parseParams,
  type FileEntry,
  type HostInfo,
  type JobSummary,
  type MethodName,
  type Result,
  type WorkbenchEvent,
} from '../api/contract';
import { ENGINE_METHODS, ENGINE_WORKSPACE_METHODS } from '../engine/engine';
import { DATASET_TOOL_METHODS } from '../engine/engine';
import { RunStore, groupSummary } from '../runs/run-store';
import { readRunMeta, updateRunMeta } from '../runs/run-meta';
import { exportCheckpoint, listCheckpoints } from './checkpoint-files';
import { newGroupName, seedRunConfig } from '../runs/seed-group';
import { EngineClient } from './engine-client';
import type { EngineLauncher } from './engine-launcher';
import { FileRefs, isInside } from './file-refs';
import { saveExportFile } from './exports';
import { copyExportTo, exportSource, listExportFiles, readExportFile } from './exports';
import { readUiState, writeUiState } from './ui-state';
import { Workspace, defaultWorkspacePath } from '../workspace/workspace';
import { readSettings, writeSettings } from '../workspace/settings';
import { VERSION } from '../version';
import { errorMessage } from '../util/error-message';

/** What only the host can do natively (Electron dialogs); browser mode has none. */
export interface HostDialogs {
  pickOpen(opts: { directory: boolean; title?: string }): Promise<string | null>;
  /** A native save dialog; resolves to the chosen path, or null when cancelled. */
  pickSave?(opts: { defaultName: string; title?: string }): Promise<string | null>;
  /** Show a folder in the system's file manager; resolves false when it could not. */
  openFolder?(path: string): Promise<boolean>;
}

/** A run's summary with its notes and tags (runs/<id>/meta.json) when it has any. */
function withMeta<T extends object>(summary: T, runDir: string): T & { notes?: string; tags?: string[] } {
  const m = readRunMeta(runDir);
  return { ...summary, ...(m.notes ? { notes: m.notes } : {}), ...(m.tags.length ? { tags: m.tags } : {}) };
}

export interface WorkbenchServiceOptions {
  /** How long a cancelled job may take to stop before the engine is killed and restarted (ms). */
  cancelGraceMs?: number;
  host: 'electron' | 'browser';
  launcher: EngineLauncher;
  /** Workspace folder; defaults to the last one opened, else ~/LiNO-Workbench. */
  workspace?: string;
  dialogs?: HostDialogs;
  /** Roots the in-app file browser may list (browser mode). Defaults to the user's home. */
  homeRoot?: string;
}

export class WorkbenchService {
  readonly engine: EngineClient;
  readonly refs = new FileRefs();
  private workspace: Workspace;
  private readonly listeners = new Set<(e: WorkbenchEvent) => void>();
  /** Last known state of every job, so a crash or a forced cancel can close them for the views. */
  private readonly jobs = new Map<string, JobSummary>();

  constructor(private readonly opts: WorkbenchServiceOptions) {
    this.engine = new EngineClient(opts.launcher, (e) => this.onEngineEvent(e));
    const wsPath = opts.workspace ?? readSettings().lastWorkspace ?? defaultWorkspacePath();
    this.workspace = this.useWorkspace(wsPath);
  }

  get workspacePath(): string {
    return this.workspace.path;
  }

  onEvent(listener: (e: WorkbenchEvent) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private onEngineEvent(e: WorkbenchEvent): void {
    if (e.type === 'job') this.jobs.set(e.job.id, e.job);
    this.emit(e);
    if (e.type === 'engine' && e.state === 'crashed') {
      // Jobs die with the engine: tell the views instead of leaving them spinning.
      for (const job of this.jobs.values()) {
        if (job.state === 'running' || job.state === 'queued') {
          this.onEngineEvent({ type: 'job', job: { ...job, state: 'failed', error: e.detail ?? 'the engine crashed', endedAt: new Date().toISOString(), etaSeconds: null } });
        }
      }
    }
  }

  /**
   * Cancel is a message first; a job still running after the grace period (a long kernel that
   * never looks at its cancel flag, which also keeps the engine from answering) costs the engine a restart.
   */
  private async cancelJob(id: string): Promise<{ ok: boolean }> {
    const grace = this.opts.cancelGraceMs ?? 10_000;
    let forced = false;
    const timer = setTimeout(() => {
      const job = this.jobs.get(id);
      if (!job || job.state !== 'running') return;
      forced = true;
      this.emit({ type: 'log', level: 'warn', message: `job ${id} did not stop within ${grace / 1000} s of cancel; restarting the engine` });
      this.onEngineEvent({ type: 'job', job: { ...job, state: 'cancelled', endedAt: new Date().toISOString(), etaSeconds: null } });
      void this.engine.restart().catch(() => {});
    }, grace);
    timer.unref?.();
    try {
      return (await this.engine.call('jobs.cancel', { id })) as { ok: boolean };
    } catch (e) {
      if (forced) return { ok: true };
      throw e;
    }
  }

  private emit(e: WorkbenchEvent): void {
    for (const l of this.listeners) {
      try {
        l(e);
      } catch {
        // One broken listener (a closed socket) must not starve the others.
      }
    }
  }

  /** Entry point for both transports: untrusted method name and params in, validated result out. */
  async call(method: unknown, rawParams: unknown): Promise<unknown> {
    if (!isMethod(method)) throw new ApiError(`unknown method '${String(method)}'`, 'unknown_method');
    const params = parseParams(method, rawParams);
    const result = await this.dispatch(method, params);
    // Validate what we send back as well: a contract drift shows up here, not as a blank view.
    const r = (methods[method].result as import('zod').ZodType).safeParse(result);
    if (!r.success) throw new ApiError(`${method}: the host produced an invalid result (${r.error.issues[0].message})`);
    return r.data;
  }

  private async dispatch(method: MethodName, params: any): Promise<unknown> {
    if (method === 'jobs.cancel') return this.cancelJob(params.id);
    if (method === 'jobs.start') return this.engine.call(method, this.jobStartParams(params));
    if (ENGINE_METHODS.includes(method)) return this.engine.call(method, params);
    if (ENGINE_WORKSPACE_METHODS.includes(method)) return this.engine.call(method, { ...params, workspace: this.workspace.path });
    if (DATASET_TOOL_METHODS.includes(method)) return this.engine.call(method, { ...params, workspace: this.workspace.path });
    if (method === 'runs.importCheckpoint') {
      // As for data files: the engine reads the path behind the user's reference, never one the renderer made up.
      const { file, ...rest } = params as { file: string };
      return this.engine.call(method, { ...rest, path: this.refs.resolve(file), workspace: this.workspace.path });
    }
    if (method === 'datasets.inspect' || method === 'datasets.import') {
      // The engine gets the path behind the user's file reference, never one the renderer made up.
      const { file, ...rest } = params as { file: string };
      return this.engine.call(method, { ...rest, path: this.refs.resolve(file, 'file'), workspace: this.workspace.path });
    }
    switch (method) {
      case 'runs.list': {
        const store = this.runs();
        return store.list().map((r) => withMeta(r, join(store.root, r.id)));
      }
      case 'runs.get': {
        const run = this.openRun(params.id);
        return { summary: withMeta(run.summary(), run.dir), config: run.readConfig(), status: run.readStatus() };
      }
      case 'runs.checkpoints':
        return listCheckpoints(this.openRun(params.id).dir);
      case 'runs.exportCheckpoint': {
        const run = this.openRun(params.id);
        return exportCheckpoint(run.dir, run.id, params.checkpoint, this.workspace.dir('exports'));
      }
      case 'runs.annotate': {
        const run = this.openRun(params.id);
        try {
          return updateRunMeta(run.dir, { notes: params.notes, tags: params.tags });
        } catch (e) {
          throw new ApiError((e as Error).message, 'invalid_params', { field: /: tags/.test((e as Error).message) ? 'tags' : 'notes', file: run.dir });
        }
      }
      case 'runs.metrics': {
        const r = this.openRun(params.id).readMetrics(params.offset);
        const records = params.type === 'all' ? r.records : r.records.filter((x) => x.type === params.type);
        return { records, next: r.next, skipped: r.skipped };
      }
      case 'runs.reveal': {
        const run = this.openRun(params.id);
        // A page in a browser cannot open folders; the local host could, but only Electron does it on purpose.
        const opened = this.opts.dialogs?.openFolder ? await this.opts.dialogs.openFolder(run.dir) : false;
        return { path: run.dir, opened };
      }
      case 'runs.delete': {
        const run = this.openRun(params.id);
        const st = run.readStatus().state;
        if (st === 'running' || st === 'paused' || st === 'queued') {
          throw new ApiError(`run '${params.id}' is ${st}; stop it before deleting`, 'invalid_params', { field: 'id' });
        }
        this.runs().delete(params.id);
        return { ok: true };
      }
      case 'train.start': {
        if (!('config' in params)) return this.engine.call('train.start', { workspace: this.workspace.path, runId: this.openRun(params.resume).id });
        const seeds: number = params.seeds ?? 1;
        const cfg = this.withDataPath(params.config) as Record<string, unknown> & { seed: number; name?: string };
        if (seeds === 1) return this.engine.call('train.start', { workspace: this.workspace.path, runId: this.runs().create(cfg).id });
        const group = typeof cfg.group === 'string' ? cfg.group : newGroupName(cfg.name);
        const started: { runId: string; job: unknown }[] = [];
        for (let i = 0; i < seeds; i++) {
          const run = this.runs().create(seedRunConfig(cfg, group, i));
          started.push((await this.engine.call('train.start', { workspace: this.workspace.path, runId: run.id })) as { runId: string; job: unknown });
        }
        return { ...started[0], group: started };
      }
      case 'train.calibrate':
        return this.engine.call('train.calibrate', { workspace: this.workspace.path, config: this.withDataPath(params.config), steps: params.steps });
      case 'runs.group':
        return groupSummary(this.runs(), params.group);
      case 'host.info':
        return { kind: this.opts.host, nativeDialogs: !!this.opts.dialogs, version: VERSION } satisfies HostInfo;
      case 'engine.restart':
        return { pid: (await this.engine.restart()) ?? -1 };
      case 'workspace.get':
        return this.workspace.summary();
      case 'workspace.open': {
        const dir = this.refs.resolve(params.dir, 'dir');
        if (!statSync(dir).isDirectory()) throw new ApiError(`'${dir}' is not a folder`, 'invalid_params', { field: 'dir', file: dir });
        this.workspace = this.useWorkspace(dir);
        return this.workspace.summary();
      }
      case 'files.list':
        return this.listFiles(params.root, params.rel);
      case 'files.pickOpen': {
        if (!this.opts.dialogs) return null;
        const p = await this.opts.dialogs.pickOpen({ directory: params.directory, title: params.title });
        if (!p) return null;
        return { ref: this.refs.issue(p, null), name: p.split(sep).pop() ?? p };
      }
      case 'exports.save':
        return saveExportFile(this.workspace.dir('exports'), params.name, params.mime, params.data);
      case 'ui.state.get': {
        const r = readUiState(this.workspace.path);
        // A damaged or foreign state file must not keep the app from starting: say so, start fresh.
        if (r.warning) {
          console.warn(r.warning);
          this.emit({ type: 'log', level: 'warn', message: r.warning });
        }
        return r;
      }
      case 'ui.state.set':
        return writeUiState(this.workspace.path, params.state);
      case 'exports.list':
        return listExportFiles(this.workspace.dir('exports'));
      case 'exports.read':
        return readExportFile(this.workspace.dir('exports'), params.name);
      case 'exports.saveAs': {
        const dir = this.workspace.dir('exports');
        exportSource(dir, params.name); // refuse a missing or foreign file before asking the user anything
        if (!this.opts.dialogs?.pickSave) return null;
        const dest = await this.opts.dialogs.pickSave({ defaultName: params.name.split('/').pop()!, title: `Save ${params.name} as` });
        return dest ? copyExportTo(dir, params.name, dest) : null;
      }
      default:
        throw new ApiError(`method '${method}' is not implemented by this host`, 'unknown_method');
    }
  }

  /** jobs.start as the engine gets it: the open workspace added, a file reference resolved; the contract refused the rest. */
  private jobStartParams(p: { kind: string; params: Record<string, unknown> }): { kind: string; params: Record<string, unknown> } {
    if (p.kind === 'generate') return { kind: p.kind, params: { ...p.params, workspace: this.workspace.path } };
    if (p.kind === 'import') {
      const { file, ...rest } = p.params as { file: string };
      return { kind: p.kind, params: { ...rest, path: this.refs.resolve(file, 'params.file'), workspace: this.workspace.path } };
    }
    return p;
  }

  /**
   * A run's data file comes as a reference (`data.file`) and is stored as the path the host resolved
   * it to; a bare `data.path` only when it is the data file of a run already in this workspace.
   */
  private withDataPath(config: Record<string, unknown>): Record<string, unknown> {
    const data = config.data as { kind: string; file?: string; path?: string };
    if (data.kind !== 'file') return config;
    const { file, path, ...rest } = data;
    if ((file === undefined) === (path === undefined)) {
      throw new ApiError('train.start: a data file is given as config.data.file (a file reference from the file browser or a dialog)', 'invalid_params', { field: 'config.data.file' });
    }
    if (file !== undefined) return { ...config, data: { ...rest, path: this.refs.resolve(file, 'config.data.file') } };
    const known = this.runs().list().some((r) => {
      try {
        const d = (this.runs().open(r.id).readConfig() as { data?: { kind?: string; path?: string } }).data;
        return d?.kind === 'file' && d.path === path;
      } catch {
        return false;
      }
    });
    if (!known) {
      throw new ApiError(`train.start: config.data.path '${path}' is not the data file of a run in this workspace; choose the file (config.data.file) instead`, 'forbidden', { field: 'config.data.path' });
    }
    return { ...config, data: { ...rest, path } };
  }

  private runs(): RunStore {
    return new RunStore(this.workspace.dir('runs'));
  }

  private openRun(id: string) {
    try {
      return this.runs().open(id);
    } catch (e) {
      throw new ApiError(errorMessage(e), 'not_found', { field: 'id' });
    }
  }

  private useWorkspace(path: string): Workspace {
    const ws = Workspace.open(path);
    for (const l of ws.removedLeftovers) {
      const message = `removed a temp file left by a stopped process: ${l.path} (${(l.bytes / 1e6).toFixed(1)} MB)`;
      console.warn(message);
      this.emit({ type: 'log', level: 'info', message });
    }
    writeSettings({ ...readSettings(), lastWorkspace: ws.path });
    return ws;
  }

  /**
   * Lists a folder under an allowed root; refuses anything that resolves outside it (.., symlinks).
   * Entries are resolved too: a link leading outside the root is listed without a reference, and
   * a name that is not valid UTF-8 is listed with a marker and no reference (it cannot be named back).
   */
  listFiles(rootName: 'home' | 'workspace', rel: string): Result<'files.list'> {
    const root = realpathSync(rootName === 'home' ? (this.opts.homeRoot ?? homedir()) : this.workspace.path);
    const target = resolve(root, rel || '.');
    let real: string;
    try {
      real = realpathSync(target);
    } catch {
      // A listed name that is not valid UTF-8 comes back with U+FFFD in it and names nothing on disk.
      if (rel.includes('\uFFFD')) throw new ApiError(`'${rel}' has a name that is not valid UTF-8; rename it to open it`, 'invalid_params', { field: 'rel' });
      throw new ApiError(`folder '${rel}' does not exist under ${rootName}`, 'not_found', { field: 'rel' });
    }
    if (!isInside(root, real)) {
      throw new ApiError(`'${rel}' is outside the ${rootName} folder`, 'forbidden', { field: 'rel' });
    }
    if (!statSync(real).isDirectory()) throw new ApiError(`'${rel}' is not a folder`, 'invalid_params', { field: 'rel' });
    const entries: FileEntry[] = [];
    for (const raw of readdirSync(real, { encoding: 'buffer' })) {
      const name = raw.toString('utf8');
      if (name.startsWith('.')) continue;
      const validName = Buffer.from(name, 'utf8').equals(raw);
      const abs = validName ? join(real, name) : Buffer.concat([Buffer.from(real + sep), raw]);
      try {
        const st = statSync(abs);
        const kind = st.isDirectory() ? 'dir' : 'file';
        const entry: FileEntry = { name, kind, size: st.size, modified: st.mtime.toISOString() };
        if (!validName) entry.name = `${name} [name is not valid UTF-8: rename it to open it]`;
        else {
          const resolved = realpathSync(abs);
          if (isInside(root, resolved)) entry.ref = this.refs.issue(resolved, root);
          else entry.name = `${name} [link leading outside ${rootName}: not opened]`;
        }
        entries.push(entry);
      } catch {
        // Broken links and unreadable entries are left out of the listing.
      }
    }
    entries.sort((a, b) => (a.kind === b.kind ? a.name.localeCompare(b.name) : a.kind === 'dir' ? -1 : 1));
    const relNorm = relative(root, real).split(sep).join('/');
    const parent = relNorm === '' ? null : dirname(relNorm) === '.' ? '' : dirname(relNorm);
    return { root: rootName, rel: relNorm, parent, entries };
  }

  async dispose(): Promise<void> {
    await this.engine.stop();
    this.listeners.clear();
  }
}
