// One writer per run: runs/<id>/train.lock, created atomically (O_EXCL) by whoever trains the run
// (the engine's training job or `lino train`), holding its pid, host, start time and a token.
// A lock whose process is gone (same host, `kill(pid, 0)` fails) is stale and taken over, saying
// so; a lock held by a live process, or by another host (whose processes cannot be checked), is
// refused with a message naming the run and the holder. The same lock guards a sweep's state
// (sweeps/<id>/sweep.lock, main/sweep/sweep-runner.ts): acquireLock with another LockTarget.
import { closeSync, linkSync, openSync, readFileSync, renameSync, rmSync, statSync, writeFileSync, writeSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { errorMessage } from '../util/error-message';

export const LOCK_FILE = 'train.lock';

export interface LockInfo {
  pid: number;
  host: string;
  startedAt: string;
  /** Who holds it ('lino train', 'engine'): for the messages. */
  owner: string;
  token: string;
}

export class RunLockedError extends Error {
  constructor(readonly runId: string, readonly holder: LockInfo | null, message: string) {
    super(message);
  }
}

/** What a lock guards, for its file and its messages. */
export interface LockTarget {
  /** The guarded thing's id ('run' ids for RunLockedError.runId). */
  id: string;
  /** Its folder, which holds the lock file. */
  dir: string;
  file: string;
  /** 'run', 'sweep'. */
  noun: string;
  /** "run 'x'", "sweep 'y'". */
  label: string;
  /** What the holder does: "is being trained by another writer". */
  busy: string;
}

const runTarget = (runId: string, runDir: string): LockTarget => ({ id: runId, dir: runDir, file: LOCK_FILE, noun: 'run', label: `run '${runId}'`, busy: 'is being trained by another writer' });

/** Tokens of the locks this thread holds: a lock with our pid but another token is left over. */
const heldHere = new Set<string>();
/** A lock file still being written by its creator (open and write are two calls): not stale yet. */
const YOUNG_MS = 5000;

/** Whether process `pid` of this host is alive (EPERM: alive, another user's). */
export function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

export function readLock(runDir: string, file = LOCK_FILE): LockInfo | 'unreadable' | null {
  const path = join(runDir, file);
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return null;
    return 'unreadable';
  }
  try {
    const j = JSON.parse(text) as Partial<LockInfo>;
    if (typeof j.pid !== 'number' || typeof j.host !== 'string') return 'unreadable';
    return { pid: j.pid, host: j.host, startedAt: String(j.startedAt ?? ''), owner: String(j.owner ?? 'a trainer'), token: String(j.token ?? '') };
  } catch {
    return 'unreadable';
  }
}

type Verdict = { held: true; info: LockInfo | null; why: string } | { held: false; why: string };

/** Whether the lock at `path` belongs to a live writer. */
function judge(path: string, info: LockInfo | 'unreadable'): Verdict {
  if (info === 'unreadable') {
    let age = Infinity;
    try {
      age = Date.now() - statSync(path).mtimeMs;
    } catch {
      return { held: false, why: 'it disappeared' };
    }
    return age < YOUNG_MS ? { held: true, info: null, why: 'another process is taking it right now' } : { held: false, why: 'it is damaged' };
  }
  if (info.host !== hostname()) return { held: true, info, why: `held by process ${info.pid} on host '${info.host}', which cannot be checked from here` };
  if (info.pid === process.pid) {
    return heldHere.has(info.token) ? { held: true, info, why: `held by this process (${info.pid})` } : { held: false, why: `this process (${info.pid}) no longer trains it` };
  }
  return processAlive(info.pid) ? { held: true, info, why: `held by ${info.owner}, process ${info.pid}, since ${info.startedAt}` } : { held: false, why: `its process ${info.pid} (${info.owner}, since ${info.startedAt}) is gone` };
}

function refusal(t: LockTarget, v: Extract<Verdict, { held: true }>): RunLockedError {
  const remote = v.info && v.info.host !== hostname();
  return new RunLockedError(
    t.id,
    v.info,
    `${t.label} ${t.busy}: ${v.why}. ` +
      (remote ? `If nothing uses it on '${v.info!.host}' any more, delete ${join(t.dir, t.file)}.` : 'Stop that one first, or wait for it to end.'),
  );
}

/** Throws RunLockedError when a live writer holds the target; otherwise returns (nothing is written). */
export function assertUnlocked(t: LockTarget): void {
  const info = readLock(t.dir, t.file);
  if (info === null) return;
  const v = judge(join(t.dir, t.file), info);
  if (v.held) throw refusal(t, v);
}

/** Throws RunLockedError when a live writer holds the run; otherwise returns (nothing is written). */
export function assertRunUnlocked(runId: string, runDir: string): void {
  assertUnlocked(runTarget(runId, runDir));
}

/** Who holds the run, if a live writer does (null otherwise). */
export function runLockHolder(runDir: string): LockInfo | null {
  const info = readLock(runDir);
  if (info === null) return null;
  const v = judge(join(runDir, LOCK_FILE), info);
  return v.held ? v.info ?? { pid: -1, host: '', startedAt: '', owner: 'a trainer', token: '' } : null;
}

export interface RunLock {
  readonly info: LockInfo;
  release(): void;
  /**
   * Gives the lock to a child process that writes the run (the PyTorch trainer): the file names its
   * pid, and this process no longer removes it when it exits, so the run stays locked while the
   * child trains on after an engine restart. release() still removes it (the child ended).
   */
  handOver(pid: number, owner: string): void;
}

function create(path: string, info: LockInfo, noun: string): boolean {
  let fd: number;
  try {
    fd = openSync(path, 'wx');
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw new Error(`${path}: cannot create the ${noun} lock (${errorMessage(e)})`);
  }
  try {
    writeSync(fd, JSON.stringify(info) + '\n');
  } finally {
    closeSync(fd);
  }
  return true;
}

/**
 * Takes the run's lock or throws RunLockedError. A stale lock is taken over and `onTakeover` says
 * why. The lock is released by release(), and at the latest when this process exits.
 */
export function acquireRunLock(runId: string, runDir: string, owner: string, onTakeover: (message: string) => void = () => {}): RunLock {
  return acquireLock(runTarget(runId, runDir), owner, onTakeover);
}

/** acquireRunLock for any target (a sweep's state): the same file format, rules and messages. */
export function acquireLock(t: LockTarget, owner: string, onTakeover: (message: string) => void = () => {}): RunLock {
  const path = join(t.dir, t.file);
  const info: LockInfo = { pid: process.pid, host: hostname(), startedAt: new Date().toISOString(), owner, token: randomBytes(8).toString('hex') };
  let tookOver: string | null = null;
  for (let attempt = 0; attempt < 5; attempt++) {
    if (create(path, info, t.noun)) {
      if (tookOver) onTakeover(`took over the ${t.noun} lock of ${t.label}: ${tookOver}`);
      return held(path, info);
    }
    const cur = readLock(t.dir, t.file);
    if (cur === null) continue; // released between our two calls: try again
    const v = judge(path, cur);
    if (v.held) throw refusal(t, v);
    // Stale: move exactly that file aside (a rename is atomic; if another process took it over
    // first, the file we move is its live lock: put it back and let the next round refuse).
    const aside = `${path}.stale-${info.token}`;
    try {
      renameSync(path, aside);
    } catch {
      continue;
    }
    const moved = readLockAt(aside);
    if (cur === 'unreadable' ? moved !== null : moved?.token !== cur.token) {
      try {
        linkSync(aside, path); // never over a lock created meanwhile
      } catch {
        // taken again meanwhile: that one stands
      }
      rmSync(aside, { force: true });
      continue;
    }
    rmSync(aside, { force: true });
    tookOver = v.why;
  }
  throw new RunLockedError(t.id, null, `${t.label}: cannot take its lock ${path} (other processes keep taking it)`);
}

function readLockAt(path: string): LockInfo | null {
  try {
    return JSON.parse(readFileSync(path, 'utf8')) as LockInfo;
  } catch {
    return null;
  }
}

function held(path: string, info: LockInfo): RunLock {
  heldHere.add(info.token);
  let done = false;
  const release = () => {
    if (done) return;
    done = true;
    heldHere.delete(info.token);
    process.off('exit', release);
    // Only our own lock: never remove one another process took over meanwhile.
    if (readLockAt(path)?.token === info.token) rmSync(path, { force: true });
  };
  process.on('exit', release);
  const handOver = (pid: number, owner: string) => {
    if (done) return;
    const next: LockInfo = { ...info, pid, owner };
    const tmp = `${path}.${info.token}.tmp`;
    writeFileSync(tmp, JSON.stringify(next) + '\n');
    renameSync(tmp, path); // same token: release() still recognizes it as ours
    process.off('exit', release);
  };
  return { info, release, handOver };
}

/**
 * Removes a lock handed over to a child process (handOver) once that process is gone: a later engine
 * that followed the PyTorch trainer another engine started finalizes the run as the starter would.
 */
export function releaseHandedOverLock(runDir: string, pid: number): void {
  const cur = readLock(runDir);
  if (cur && cur !== 'unreadable' && cur.pid === pid && cur.host === hostname() && !processAlive(pid)) {
    rmSync(join(runDir, LOCK_FILE), { force: true });
  }
}

/** Removes a lock this process left behind (a training thread that died without releasing it). */
export function releaseOwnLeftoverLock(runDir: string): void {
  const cur = readLock(runDir);
  if (cur && cur !== 'unreadable' && cur.pid === process.pid && cur.host === hostname() && !heldHere.has(cur.token)) {
    rmSync(join(runDir, LOCK_FILE), { force: true });
  }
}
