// The WorkbenchApi as both hosts serve it: validates every call against the contract,
// answers host-level calls (workspace, files) itself and forwards compute to the engine process.
import { writeDatasetLabel } from '../workspace/dataset-labels';
import { evaluationAsk, readEvaluation } from '../runs/evaluation-cache';
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
  type HostMethod,
  type JobSummary,
  type MethodName,
  type MethodSpec,
  type ParsedParams,
  type Result,
  type WorkbenchEvent,
} from '../api/contract';
import { RunStore, groupSummary } from '../runs/run-store';
import { readRunMeta, updateRunMeta } from '../runs/run-meta';
import { exportCheckpoint, listCheckpoints } from './checkpoint-files';
import { newGroupName, seedRunConfig } from '../runs/seed-group';
import { EngineClient } from './engine-client';
import type { EngineLauncher } from './engine-launcher';
import { FileRefs, isInside } from './file-refs';
import { copyExportTo, exportSource, listExportFiles, readExportFile, saveExportFile } from './exports';
import { readUiState, writeUiState } from './ui-state';
import { Workspace, defaultWorkspacePath } from '../workspace/workspace';
import { configDir, readSettings, writeSettings } from '../workspace/settings';
import { updateWorkspaceSettings } from '../workspace/workspace-settings';
import { VERSION } from '../version';
import { ReportNotFound, writeReport, type ReportKind } from '../report/report';
import { findChromium, printToPdf } from '../report/report-pdf';
import { errorMessage } from '../util/error-message';
import { pythonPathProblem } from '../util/python-path';

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

/** The contract's file-reference fields of a call (its `files`). */
type FileField<M extends MethodName> = (typeof methods)[M] extends { files: readonly (infer F extends string)[] } ? F : never;

/**
 * A host call's parameters as its handler gets them: a top-level file reference arrives as `path`
 * (workspace.open's `dir`); a nested one is resolved inside its object (train.start's config.data.path).
 */
type HostParams<M extends HostMethod> = [FileField<M>] extends [never]
  ? ParsedParams<M>
  : FileField<M> extends `${string}.${string}`
    ? ParsedParams<M>
    : Omit<ParsedParams<M>, FileField<M>> & { path: string };

/** One handler per call the contract routes to the host (route 'host'); a missing one is a compile error. */
type HostHandlers = { [M in HostMethod]: (params: HostParams<M>) => Result<M> | Promise<Result<M>> };

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
    // a new engine (first start, restart, after a crash) follows the PyTorch runs the last one started
    if (e.type === 'engine' && e.state === 'ready') this.adoptTorchRuns();
    if (e.type === 'engine' && e.state === 'crashed') {
      // Jobs die with the engine: tell the views instead of leaving them spinning.
      for (const job of this.jobs.values()) {
        if (job.state === 'running' || job.state === 'queued') {
          this.onEngineEvent({ type: 'job', job: { ...job, state: 'failed', error: e.detail ?? 'the engine crashed', endedAt: new Date().toISOString(), etaSeconds: null } });
        }
      }
    }
  }

  /** Asks the engine to follow the PyTorch runs of the open workspace an earlier engine started (TrainingJobs.adopt). */
  private adoptTorchRuns(): void {
    this.engine.call('train.adopt', { workspace: this.workspace.path }).catch((err: unknown) => {
      this.emit({ type: 'log', level: 'warn', message: `could not follow the PyTorch runs an earlier engine started: ${errorMessage(err)}` });
    });
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
    const spec: MethodSpec = methods[method];
    // The engine and the handlers below see paths the user chose, never a reference or a path a client made up.
    const params = this.refs.resolveFields(method, spec.files ?? [], parseParams(method, rawParams), (path, field, pathField) =>
      this.checkRunDataPath(method, path, field, pathField),
    );
    const result = await this.route(method, spec, params);
    // Validate what we send back as well: a contract drift shows up here, not as a blank view.
    const r = spec.result.safeParse(result);
    if (!r.success) throw new ApiError(`${method}: the host produced an invalid result (${r.error.issues[0].message})`);
    return r.data;
  }

  /** Where the contract says the call runs (its `route`). */
  private route(method: MethodName, spec: MethodSpec, params: unknown): unknown {
    switch (spec.route) {
      case 'engine':
        return this.engine.call(method, params);
      case 'engine+workspace':
        return this.engine.call(method, { ...(params as object), workspace: this.workspace.path });
      case 'host':
        // The contract's route and HostHandlers' keys are the same set, so the handler exists and takes these params.
        return (this.hostHandlers[method as HostMethod] as (p: unknown) => unknown)(params);
    }
  }

  /**
   * A bare `path` beside a file reference field is accepted only where the host chose it before:
   * the data file of a run in this workspace (train.start with a copied configuration).
   */
  private checkRunDataPath(method: string, path: string, field: string, pathField: string): void {
    const known = this.runs().list().some((r) => {
      try {
        const d = (this.runs().open(r.id).readConfig() as { data?: { kind?: string; path?: string } }).data;
        return d?.kind === 'file' && d.path === path;
      } catch {
        return false;
      }
    });
    if (!known) {
      throw new ApiError(`${method}: ${pathField} '${path}' is not the data file of a run in this workspace; choose the file (${field}) instead`, 'forbidden', { field: pathField });
    }
  }

  private readonly hostHandlers: HostHandlers = {
    'settings.python': (p) => {
      // the engine runs this file: the trust rule of main/util/python-path.ts, before anything is saved
      const problem = typeof p.python === 'string' ? pythonPathProblem(p.python, "settings.python: field 'python'", [this.workspace.path, configDir()]) : null;
      if (problem) throw new ApiError(problem, 'invalid_params', { field: 'python' });
      if (p.python !== undefined) {
        const { python: _old, ...rest } = readSettings();
        writeSettings(p.python === null ? rest : { ...rest, python: p.python });
      }
      return { python: readSettings().python ?? null, envOverride: process.env.LINO_PYTHON || null };
    },
    'host.info': () => ({ kind: this.opts.host, nativeDialogs: !!this.opts.dialogs, version: VERSION }) satisfies HostInfo,
    'engine.restart': async () => ({ pid: (await this.engine.restart()) ?? -1 }),
    'jobs.cancel': (p) => this.cancelJob(p.id),
    'workspace.get': () => this.workspace.summary(),
    'workspace.settings': (p) => updateWorkspaceSettings(this.workspace.path, p),
    'workspace.open': (p) => {
      if (!statSync(p.path).isDirectory()) throw new ApiError(`'${p.path}' is not a folder`, 'invalid_params', { field: 'dir', file: p.path });
      this.workspace = this.useWorkspace(p.path);
      if (this.engine.pid !== undefined) this.adoptTorchRuns();
      return this.workspace.summary();
    },
    'files.list': (p) => this.listFiles(p.root, p.rel),
    'files.pickOpen': async (p) => {
      if (!this.opts.dialogs) return null;
      const path = await this.opts.dialogs.pickOpen({ directory: p.directory, title: p.title });
      if (!path) return null;
      return { ref: this.refs.issue(path, null), name: path.split(sep).pop() ?? path };
    },
    'ui.state.get': () => {
      const r = readUiState(this.workspace.path);
      // A damaged or foreign state file must not keep the app from starting: say so, start fresh.
      if (r.warning) {
        console.warn(r.warning);
        this.emit({ type: 'log', level: 'warn', message: r.warning });
      }
      return r;
    },
    'ui.state.set': (p) => writeUiState(this.workspace.path, p.state),
    'exports.save': (p) => saveExportFile(this.workspace.dir('exports'), p.name, p.mime, p.data),
    'exports.list': () => listExportFiles(this.workspace.dir('exports')),
    'exports.read': (p) => readExportFile(this.workspace.dir('exports'), p.name),
    'exports.saveAs': async (p) => {
      const dir = this.workspace.dir('exports');
      exportSource(dir, p.name); // refuse a missing or foreign file before asking the user anything
      if (!this.opts.dialogs?.pickSave) return null;
      const dest = await this.opts.dialogs.pickSave({ defaultName: p.name.split('/').pop()!, title: `Save ${p.name} as` });
      return dest ? copyExportTo(dir, p.name, dest) : null;
    },
    'runs.list': () => {
      const store = this.runs();
      return store.list().map((r) => withMeta(r, join(store.root, r.id)));
    },
    'runs.get': (p) => {
      const run = this.openRun(p.id);
      return { summary: withMeta(run.summary(), run.dir), config: run.readConfig(), status: run.readStatus() };
    },
    'runs.group': (p) => groupSummary(this.runs(), p.group),
    // a saved result of an older shape is no result (the view evaluates again)
    'runs.evaluation': (p) => {
      const r = methods['runs.evaluation'].result.safeParse(readEvaluation(this.openRun(p.id).dir, evaluationAsk(p)));
      return r.success ? r.data : null;
    },
    'runs.checkpoints': (p) => listCheckpoints(this.openRun(p.id).dir),
    'runs.report': (p) => this.reportExport({ ...p, id: this.openRun(p.id).id }, 'run'),
    'sweeps.report': (p) => this.reportExport(p, 'sweep'),
    'reproduce.report': (p) => this.reportExport(p, 'reproduction'),
    'runs.exportCheckpoint': (p) => {
      const run = this.openRun(p.id);
      return exportCheckpoint(run.dir, run.id, p.checkpoint, this.workspace.dir('exports'));
    },
    'datasets.label': (p) => {
      const dir = join(this.workspace.dir('datasets'), p.id);
      try {
        writeDatasetLabel(dir, p.label);
      } catch (e) {
        throw new ApiError(errorMessage(e), 'not_found', { field: 'id', file: dir });
      }
      return this.workspace.summary();
    },
    'runs.annotate': (p) => {
      const run = this.openRun(p.id);
      try {
        return updateRunMeta(run.dir, { notes: p.notes, tags: p.tags });
      } catch (e) {
        const message = errorMessage(e);
        throw new ApiError(message, 'invalid_params', { field: /: tags/.test(message) ? 'tags' : 'notes', file: run.dir });
      }
    },
    'runs.metrics': (p) => {
      const r = this.openRun(p.id).readMetrics(p.offset);
      const records = p.type === 'all' ? r.records : r.records.filter((x) => x.type === p.type);
      // Lines of metrics.jsonl as stored: call() checks each against the contract's MetricsRecord on the way out.
      return { records: records as Result<'runs.metrics'>['records'], next: r.next, skipped: r.skipped };
    },
    'runs.reveal': async (p) => {
      const run = this.openRun(p.id);
      // A page in a browser cannot open folders; the local host could, but only Electron does it on purpose.
      const opened = this.opts.dialogs?.openFolder ? await this.opts.dialogs.openFolder(run.dir) : false;
      return { path: run.dir, opened };
    },
    'runs.delete': (p) => {
      const run = this.openRun(p.id);
      const st = run.readStatus().state;
      if (st === 'running' || st === 'paused' || st === 'queued') {
        throw new ApiError(`run '${p.id}' is ${st}; stop it before deleting`, 'invalid_params', { field: 'id' });
      }
      this.runs().delete(p.id);
      return { ok: true };
    },
    'train.start': (p) => this.startTraining(p),
  };

  /**
   * runs.report / sweeps.report / reproduce.report: the report written to exports/report-<id>.html and,
   * with `pdf`, printed beside it by a headless Chromium of this machine; an unknown id is not_found.
   */
  private async reportExport(p: { id: string; pdf: boolean }, kind: ReportKind): Promise<{ name: string; size: number; pdf: string | null }> {
    const name = `report-${p.id}.html`;
    const html = join(this.workspace.dir('exports'), name);
    let size: number;
    try {
      size = writeReport(this.workspace.path, p.id, html, kind).bytes;
    } catch (e) {
      throw new ApiError(errorMessage(e), e instanceof ReportNotFound ? 'not_found' : 'failed', { field: 'id' });
    }
    if (!p.pdf) return { name, size, pdf: null };
    const chromium = findChromium();
    if (!chromium) throw new ApiError(`wrote exports/${name}, but no PDF: no Chromium on this machine to print it (set CHROMIUM_PATH); open the HTML in a browser and print it to PDF`, 'failed', { field: 'pdf' });
    const pdf = name.replace(/\.html$/, '.pdf');
    await printToPdf(chromium, html, join(this.workspace.dir('exports'), pdf));
    return { name, size, pdf };
  }

  /**
   * train.start: the host creates the run folder (one per seed for a seed group) with the config it
   * resolved, then asks the engine to queue each run by id.
   */
  private async startTraining(p: ParsedParams<'train.start'>): Promise<Result<'train.start'>> {
    const start = (runId: string) => this.engine.call('train.start', { workspace: this.workspace.path, runId }) as Promise<Result<'train.start'>>;
    if (!('config' in p)) return start(this.openRun(p.resume).id);
    const cfg = p.config;
    if (p.seeds === 1) return start(this.runs().create(cfg).id);
    const group = typeof cfg.group === 'string' ? cfg.group : newGroupName(cfg.name);
    const started: Result<'train.start'>[] = [];
    for (let i = 0; i < p.seeds; i++) started.push(await start(this.runs().create(seedRunConfig(cfg, group, i)).id));
    return { ...started[0], group: started };
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
        // A FIFO, socket or device blocks whoever reads it: listed, never given a reference.
        else if (!st.isDirectory() && !st.isFile()) entry.name = `${name} [not a regular file (${st.isFIFO() ? 'a FIFO' : st.isSocket() ? 'a socket' : 'a device'}): not opened]`;
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
