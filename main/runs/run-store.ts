// Runs in a workspace: runs/<id>/ holds
//   config.json    everything needed to reproduce the run (written once, atomically)
//   status.json    state (queued/running/paused/done/failed/stopped), pid of the trainer, reason, step
//   metrics.jsonl  append-only, one JSON record per line; a torn last line after a crash is ignored
//   checkpoints/   last/ and best/ (./checkpoint.ts)
//   events.log     human-readable log lines
// A run whose status says running/paused/queued but whose trainer (or engine) process is gone
// lists as 'interrupted' and can resume from its last checkpoint. train.lock (./run-lock.ts) is
// held by whoever trains the run: one writer at a time.
import { appendFileSync, closeSync, existsSync, fsyncSync, mkdirSync, openSync, readFileSync, readSync, readdirSync, renameSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import { writeFileAtomic, writeJsonAtomic } from '../util/atomic-file';
import { readCheckpointState, weightsPath } from './checkpoint';
import { assertRunUnlocked } from './run-lock';
import type { EpochMetrics } from './run-records';
import { errorMessage } from '../util/error-message';
import { removeOwnTree, removeTemp, type Ownership } from '../util/remove-tree';

/** A run folder is the workbench's own when it holds config.json (create() writes it before the folder appears). */
export const RUN_FOLDER: Ownership = { marker: 'config.json', what: 'a run folder' };

export type RunState = 'queued' | 'running' | 'paused' | 'done' | 'failed' | 'stopped' | 'interrupted';

export interface RunStatus {
  state: RunState;
  /** Process that trains (or trained) the run. */
  pid: number | null;
  /** Machine that process runs on (os.hostname()); a pid says nothing about another machine's processes. */
  host?: string;
  updatedAt: string;
  /** Why it failed or stopped (non-finite loss, cancelled by the user, ...). */
  reason?: string;
  /** Epoch and step at which it ended or was last seen. */
  epoch?: number;
  step?: number;
  backend?: string;
  /** When the run was queued (created, or re-queued to resume). */
  queuedAt?: string;
  /** When a trainer first reported it running (queue time = startedAt - queuedAt). */
  startedAt?: string;
  /** Seconds spent in the 'running' state, summed over every call that trained it (no queue, no pause). */
  trainSeconds?: number;
  /** Set while running: when the current running stretch began (trainSeconds excludes it until the next write). */
  runningSince?: string;
}

export interface RunSummary {
  id: string;
  name: string;
  state: RunState;
  createdAt: string;
  reason?: string;
  epochsDone: number;
  epochs: number | null;
  bestValRelL2: number | null;
  bestTestRelL2: number | null;
  testSamples: number | null;
  bestEpoch: number | null;
  backend: string | null;
  group: string | null;
  seed: number | null;
  /** The name without the ' (seed N)' suffix that a seed group adds: what ablation groups are named after. */
  baseName: string;
  /** Trainable parameters of the model (from the stored weights); null before the first checkpoint. */
  params: number | null;
  /** The model's registry kind (config.model.kind; 'lino' when a config leaves it out): views offer kind-specific panels by it. */
  modelKind: string;
  queuedAt: string | null;
  startedAt: string | null;
  /** Seconds between queuing and the first start. */
  queueSeconds: number | null;
  /** Seconds spent training (running state only), up to the last status write. */
  trainSeconds: number | null;
}

const ID_RE = /^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$/;

function pidAlive(pid: number | null): boolean {
  if (!pid) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

export class RunHandle {
  constructor(readonly id: string, readonly dir: string) {}

  get configPath() { return join(this.dir, 'config.json'); }
  get statusPath() { return join(this.dir, 'status.json'); }
  get metricsPath() { return join(this.dir, 'metrics.jsonl'); }
  get eventsPath() { return join(this.dir, 'events.log'); }

  readConfig<T = Record<string, unknown>>(): T {
    try {
      return JSON.parse(readFileSync(this.configPath, 'utf8')) as T;
    } catch (e) {
      throw new Error(`${this.configPath}: cannot read the run configuration (${errorMessage(e)})`);
    }
  }

  /** The stored status; `isActive(id)` tells whether this process is training it right now. */
  readStatus(isActive?: (id: string) => boolean): RunStatus {
    let s: RunStatus;
    try {
      s = JSON.parse(readFileSync(this.statusPath, 'utf8')) as RunStatus;
    } catch {
      return { state: 'interrupted', pid: null, updatedAt: new Date(0).toISOString(), reason: 'status file missing or damaged' };
    }
    // A run trained elsewhere (a cluster, synced or on a shared file system): its pid is not ours
    // to check, so its stored state stands.
    if (typeof s.host === 'string' && s.host !== hostname()) return s;
    if (s.state === 'running' || s.state === 'paused') {
      const mine = s.pid === process.pid;
      const live = mine ? (isActive ? isActive(this.id) : true) : pidAlive(s.pid);
      if (!live) return { ...s, state: 'interrupted', reason: `trainer process ${s.pid} is gone` };
    }
    // Queued by an engine that has since died: nothing will ever start it.
    if (s.state === 'queued' && s.pid && s.pid !== process.pid && !pidAlive(s.pid)) {
      return { ...s, state: 'interrupted', reason: `queued by engine process ${s.pid}, which is gone` };
    }
    return s;
  }

  /**
   * Writes the status. The timing fields are kept by the store, whatever the caller passes: queuedAt
   * (set when queued), startedAt (first time running) and trainSeconds (time in 'running', summed at
   * each write that leaves or continues a running stretch), so queue and pause time never count as training.
   */
  writeStatus(s: Omit<RunStatus, 'updatedAt' | 'queuedAt' | 'startedAt' | 'trainSeconds' | 'runningSince'>): void {
    const now = new Date();
    let prev: Partial<RunStatus> = {};
    try {
      prev = JSON.parse(readFileSync(this.statusPath, 'utf8')) as RunStatus;
    } catch {
      prev = {};
    }
    let trainSeconds = prev.trainSeconds ?? 0;
    if (prev.state === 'running' && prev.runningSince && prev.pid === s.pid) {
      trainSeconds += Math.max(0, (now.getTime() - Date.parse(prev.runningSince)) / 1000);
    }
    const iso = now.toISOString();
    const timing: Pick<RunStatus, 'queuedAt' | 'startedAt' | 'trainSeconds' | 'runningSince'> = {
      queuedAt: prev.queuedAt ?? iso,
      ...(s.state === 'running' || prev.startedAt ? { startedAt: prev.startedAt ?? iso } : {}),
      trainSeconds,
      ...(s.state === 'running' ? { runningSince: iso } : {}),
    };
    writeJsonAtomic(this.statusPath, { ...s, host: hostname(), ...timing, updatedAt: iso });
  }

  /** Appends records as JSON lines (one write); `sync` fsyncs (at epoch ends, before checkpoints). */
  appendMetrics(records: unknown[], sync = false): void {
    if (records.length === 0 && !sync) return;
    const text = records.map((r) => JSON.stringify(r) + '\n').join('');
    const fd = openSync(this.metricsPath, 'a');
    try {
      if (text) appendFileSync(fd, text);
      if (sync) fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
  }

  /**
   * Parsed metrics records from record `offset` on. Lines that do not parse (a torn last line
   * after a crash) are skipped, never fatal. `next` is the offset to ask for next time.
   */
  readMetrics(offset = 0): { records: Record<string, unknown>[]; next: number; skipped: number } {
    let text = '';
    try {
      text = readFileSync(this.metricsPath, 'utf8');
    } catch {
      return { records: [], next: offset, skipped: 0 };
    }
    const all: Record<string, unknown>[] = [];
    let skipped = 0;
    for (const line of text.split('\n')) {
      if (!line.trim()) continue;
      try {
        all.push(JSON.parse(line));
      } catch {
        skipped++;
      }
    }
    return { records: all.slice(offset), next: all.length, skipped };
  }

  /** Keeps the first `n` valid records (what the checkpoint covers) and drops the rest, atomically. */
  truncateMetrics(n: number): void {
    const { records } = this.readMetrics(0);
    writeFileAtomic(this.metricsPath, records.slice(0, n).map((r) => JSON.stringify(r) + '\n').join(''));
  }

  log(message: string): void {
    try {
      appendFileSync(this.eventsPath, `${new Date().toISOString()} ${message}\n`);
    } catch {
      // The log is for people; losing a line must not stop training.
    }
  }

  summary(isActive?: (id: string) => boolean): RunSummary {
    const cfg = (() => {
      try {
        return this.readConfig<SummaryConfig>();
      } catch {
        return {} as SummaryConfig;
      }
    })();
    const st = this.readStatus(isActive);
    let last = null;
    try {
      last = readCheckpointState(this.dir, 'last');
    } catch {
      last = null;
    }
    const name = String(cfg.name ?? this.id);
    const queueSeconds = st.queuedAt && st.startedAt ? Math.max(0, (Date.parse(st.startedAt) - Date.parse(st.queuedAt)) / 1000) : null;
    return {
      id: this.id,
      name,
      state: st.state,
      createdAt: String(cfg.createdAt ?? statSafe(this.dir)),
      ...(st.reason ? { reason: st.reason } : {}),
      epochsDone: last?.epoch ?? 0,
      epochs: typeof cfg.epochs === 'number' ? cfg.epochs : null,
      bestValRelL2: last?.best?.valRelL2 ?? null,
      bestTestRelL2: last?.best?.testRelL2 ?? null,
      testSamples: typeof cfg.resolvedData?.counts?.test === 'number' ? cfg.resolvedData.counts.test : null,
      bestEpoch: last?.best?.epoch ?? null,
      backend: st.backend ?? last?.backend ?? null,
      group: typeof cfg.group === 'string' ? cfg.group : null,
      seed: typeof cfg.seed === 'number' ? cfg.seed : null,
      baseName: name.replace(/ \(seed -?\d+\)$/, ''),
      params: paramCount(this.dir),
      modelKind: typeof cfg.model?.kind === 'string' ? cfg.model.kind : 'lino',
      ...dataOf(cfg),
      queuedAt: st.queuedAt ?? null,
      startedAt: st.startedAt ?? null,
      queueSeconds,
      trainSeconds: st.trainSeconds ?? (st.startedAt ? 0 : null),
      ...(st.updatedAt ? { updatedAt: st.updatedAt } : {}),
    };
  }
}

/** What a run's summary reads from its config.json. */
interface SummaryConfig { name?: string; createdAt?: string; epochs?: number; group?: string; seed?: number; model?: { kind?: unknown }; data?: { kind?: unknown; id?: unknown; benchmark?: unknown }; resolvedData?: { id?: unknown; counts?: { test?: unknown } } }

/** The stored dataset the run's data resolved to (or names) and its benchmark: what run pickers search and show. */
function dataOf(cfg: SummaryConfig): { dataId?: string; benchmark?: string } {
  const id = typeof cfg.resolvedData?.id === 'string' ? cfg.resolvedData.id : cfg.data?.kind === 'dataset' && typeof cfg.data.id === 'string' ? cfg.data.id : undefined;
  const benchmark = typeof cfg.data?.benchmark === 'string' ? cfg.data.benchmark : cfg.data?.kind === 'synthetic' ? 'synthetic' : undefined;
  return { ...(id ? { dataId: id } : {}), ...(benchmark ? { benchmark } : {}) };
}

/**
 * Parameter count from the weights of checkpoints/last (or best): the safetensors header lists every
 * parameter's shape, so only the header is read. Null when no checkpoint exists yet.
 */
export function paramCount(runDir: string): number | null {
  for (const name of ['last', 'best'] as const) {
    const path = weightsPath(runDir, name);
    if (!path) continue;
    let fd: number | null = null;
    try {
      fd = openSync(path, 'r');
      const head = Buffer.alloc(8);
      if (readSync(fd, head, 0, 8, 0) !== 8) continue;
      const len = Number(head.readBigUInt64LE(0));
      if (len <= 0 || len > 1 << 26) continue;
      const json = Buffer.alloc(len);
      if (readSync(fd, json, 0, len, 8) !== len) continue;
      const header = JSON.parse(json.toString('utf8')) as Record<string, { shape?: number[] }>;
      let n = 0;
      for (const [k, e] of Object.entries(header)) if (k !== '__metadata__' && Array.isArray(e.shape)) n += e.shape.reduce((a, b) => a * b, 1);
      return n;
    } catch {
      continue;
    } finally {
      if (fd !== null) closeSync(fd);
    }
  }
  return null;
}

function statSafe(p: string): string {
  try {
    return statSync(p).birthtime.toISOString();
  } catch {
    return new Date(0).toISOString();
  }
}

export class RunStore {
  readonly root: string;

  constructor(runsDir: string) {
    this.root = resolve(runsDir);
    mkdirSync(this.root, { recursive: true });
  }

  /** Creates runs/<id>/ with its config (createdAt and id added) and a 'queued' status. */
  create(config: Record<string, unknown>, id?: string): RunHandle {
    const stamp = new Date().toISOString().replace(/[-:]/g, '').replace(/\..*/, '').replace('T', '-');
    const rid = id ?? `${stamp}-${randomBytes(3).toString('hex')}`;
    if (!ID_RE.test(rid)) throw new Error(`run id '${rid}' has characters outside [A-Za-z0-9._-]`);
    const dir = join(this.root, rid);
    if (existsSync(dir)) throw new Error(`run '${rid}' already exists in ${this.root}`);
    // Built in a hidden temporary folder and renamed into place: a folder named like a run without
    // config.json is then never one the workbench left half-made, and nothing ever deletes it.
    const tmp = join(this.root, `.${rid}.${process.pid}.partial`);
    try {
      mkdirSync(join(tmp, 'checkpoints'), { recursive: true });
      const t = new RunHandle(rid, tmp);
      writeJsonAtomic(t.configPath, { ...config, id: rid, createdAt: new Date().toISOString() });
      t.writeStatus({ state: 'queued', pid: null });
      t.log(`created run ${rid}`);
      if (existsSync(dir)) throw new Error(`run '${rid}' already exists in ${this.root}`);
      renameSync(tmp, dir);
    } catch (e) {
      removeTemp(tmp);
      throw e;
    }
    return new RunHandle(rid, dir);
  }

  open(id: string): RunHandle {
    if (!ID_RE.test(id)) throw new Error(`run id '${id}' has characters outside [A-Za-z0-9._-]`);
    const dir = join(this.root, id);
    if (!existsSync(join(dir, 'config.json'))) throw new Error(`run '${id}' not found in ${this.root} (no config.json)`);
    return new RunHandle(id, dir);
  }

  /** Opens a run folder given by path (the CLI's --run DIR). */
  static openDir(dir: string): RunHandle {
    const abs = resolve(dir);
    if (!existsSync(join(abs, 'config.json'))) throw new Error(`${abs}: not a run folder (no config.json)`);
    return new RunHandle(abs.split(/[\\/]/).pop()!, abs);
  }

  /** The ids of the run folders (a folder with config.json), sorted. */
  ids(): string[] {
    let names: string[] = [];
    try {
      names = readdirSync(this.root);
    } catch {
      return [];
    }
    return names.filter((n) => ID_RE.test(n) && existsSync(join(this.root, n, 'config.json'))).sort();
  }

  list(isActive?: (id: string) => boolean): RunSummary[] {
    return this.ids().map((n) => new RunHandle(n, join(this.root, n)).summary(isActive));
  }

  /** Deletes a run's folder; refused while a live process trains it (its lock). */
  delete(id: string): void {
    const h = this.open(id);
    assertRunUnlocked(id, h.dir);
    removeOwnTree(this.root, id, RUN_FOLDER);
  }
}

/** Best-validation summary of a run group: per run (best epoch from metrics.jsonl) and mean ± std (sample std). */
export function groupSummary(store: RunStore, group: string) {
  const runs = store.list().filter((r) => r.group === group).map((r) => {
    const epochs = store.open(r.id).readMetrics().records.filter((x) => x.type === 'epoch') as EpochMetrics[];
    const best = epochs.length ? epochs.reduce((a, b) => (b.val.relL2 < a.val.relL2 ? b : a)) : null;
    return { id: r.id, name: r.name, seed: r.seed, state: r.state, params: r.params, trainSeconds: r.trainSeconds, bestEpoch: best?.epoch ?? null, valRelL2: best?.val.relL2 ?? null, valRelL2Decoded: best?.val.relL2Decoded ?? null, testRelL2: best?.test?.relL2 ?? null };
  });
  const stat = (v: (number | null)[]) => {
    const xs = v.filter((x): x is number => x !== null);
    if (xs.length === 0 || xs.length !== v.length) return null;
    const mean = xs.reduce((a, b) => a + b, 0) / xs.length;
    const std = xs.length > 1 ? Math.sqrt(xs.reduce((a, b) => a + (b - mean) ** 2, 0) / (xs.length - 1)) : 0;
    return { mean, std };
  };
  return { group, runs, valRelL2: stat(runs.map((r) => r.valRelL2)), valRelL2Decoded: stat(runs.map((r) => r.valRelL2Decoded)), testRelL2: stat(runs.map((r) => r.testRelL2)) };
}
