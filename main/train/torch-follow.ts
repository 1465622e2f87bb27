// Follows a PyTorch trainer (python -m scaleout.train) while it trains a run, whoever started it:
// the engine that spawned it (torch-run.ts), or a later engine that adopted it after a restart
// (torch-adopt.ts). One follower for both, so an adopted run sends exactly the live events of a
// fresh one (step and epoch records from metrics.jsonl, Python's output as log lines), takes Stop
// and Pause the same way, and ends the same way (done, stopped, failed with its traceback's tail,
// or interrupted with its last checkpoint).
import type { ChildProcess } from 'node:child_process';
import { closeSync, readSync } from 'node:fs';
import { join } from 'node:path';
import type { RunHandle } from '../runs/run-store';
import { processAlive } from '../runs/run-lock';
import type { RunHooks, RunOutcome } from './runner';
import type { EpochRecord, StepRecord } from './trainer';
import { LineFollower } from '../util/line-follower';
import { writeFileAtomic } from '../util/atomic-file';
import { openUserFile } from '../util/user-file';

/** Where a torch run keeps what it hands to Python (config with defaults, model.json, Python's output). */
export const TORCH_RUN_DIR = 'torch';
/** Lines of a traceback kept in the run's reason. */
const TAIL_LINES = 12;
/** Python's output read back at its end for the reason (its last lines; a chatty run's whole log is not read). */
const TAIL_BYTES = 64 * 1024;
/** A stop that Python does not honour within this time ends it with SIGKILL (a step stuck in native code). */
const STOP_GRACE_MS = 120_000;

/** The hooks the follower calls: the runner's, plus pause polling. */
export interface FollowHooks extends Pick<RunHooks, 'signal' | 'onStep' | 'onEpoch' | 'onLog'> {
  /** Polled while Python trains: true asks it to pause between two steps. */
  isPaused?: () => boolean;
}

/** How Python ended: its exit code and signal, or null when it was not our child (adopted: nobody can read its exit status). */
export type PythonExit = { code: number | null; signal: NodeJS.Signals | null } | null;

/** The Python process being followed, whether this process started it or adopted it. */
export interface PythonProcess {
  pid: number;
  /** Tells Python a control word between two steps: stop, pause, resume. */
  say(word: 'stop' | 'pause' | 'resume'): void;
  /** Ends it at once (a stop not honoured in time). */
  kill(): void;
  exited: Promise<PythonExit>;
  dispose(): void;
}

/** A Python this process spawned: words go to its stdin, its exit status is known. */
export function childPython(child: ChildProcess): PythonProcess {
  child.stdin?.on('error', () => {}); // Python gone: nothing to tell it
  return {
    pid: child.pid!,
    say: (word) => {
      if (child.stdin && !child.stdin.destroyed) child.stdin.write(`${word}\n`, () => {});
    },
    kill: () => child.kill('SIGKILL'),
    exited: new Promise((resolve) => child.once('exit', (code, signal) => resolve({ code, signal }))),
    dispose: () => child.stdin?.destroy(),
  };
}

/**
 * A Python an earlier engine spawned: its stdin was that engine's pipe, so words go to the run's
 * torch/control file, which scaleout/control.py polls (a change after Python started counts);
 * its end is seen by polling its pid.
 */
export function adoptedPython(runDir: string, pid: number): PythonProcess {
  let timer: NodeJS.Timeout | null = null;
  const exited = new Promise<PythonExit>((resolve) => {
    const check = () => {
      if (!processAlive(pid)) {
        if (timer) clearInterval(timer);
        timer = null;
        resolve(null);
      }
    };
    timer = setInterval(check, 250);
    check();
  });
  return {
    pid,
    say: (word) => writeFileAtomic(join(runDir, TORCH_RUN_DIR, 'control'), `${word}\n`),
    kill: () => {
      try {
        process.kill(pid, 'SIGKILL');
      } catch {
        // already gone
      }
    },
    exited,
    dispose: () => {
      if (timer) clearInterval(timer);
    },
  };
}

/** What the follower needs to know about the run beyond its folder. */
export interface FollowPlan {
  batchSize: number;
  /** The config's microBatch when a number (scaleout trains the batch in pieces of it). */
  microBatch?: number;
  device: string;
  /** python.log's size when this Python started: its own output begins there. */
  outStart: number;
  /** Python was paused when the follower took over (an adopted run paused before the restart). */
  paused?: boolean;
  /** python.log's lines from this byte on are sent as log lines (default: its current end; an adopted run's earlier output is on disk). */
  replayFrom?: number;
}

/** Follows Python's records and output until it exits; the run's outcome as the ordinary path records it. */
export async function followPython(run: RunHandle, hooks: FollowHooks, proc: PythonProcess, plan: FollowPlan, log: (m: string) => void): Promise<RunOutcome> {
  const outPath = join(run.dir, TORCH_RUN_DIR, 'python.log');
  // metrics from their current end: the records before are on disk, where the views read them
  const output = new LineFollower(outPath, (line) => hooks.onLog?.(`python: ${line}`), plan.replayFrom).start(200);
  const metrics = new LineFollower(join(run.dir, 'metrics.jsonl'), (line) => forward(line, hooks)).start(100);
  const control = steer(proc, hooks, plan.paused ?? false);
  const exit = await proc.exited;
  control.dispose();
  metrics.stop();
  output.stop();
  proc.dispose();
  return outcome(run, plan, exit, pythonTail(outPath, plan.outStart), log);
}

/** One metrics.jsonl line to the hooks (a torn or foreign line is skipped, as the run store does). */
function forward(line: string, hooks: FollowHooks): void {
  let r: { type?: string };
  try {
    r = JSON.parse(line) as { type?: string };
  } catch {
    return;
  }
  if (r.type === 'step') hooks.onStep?.(r as StepRecord);
  else if (r.type === 'epoch') hooks.onEpoch?.(r as EpochRecord);
}

/** Stop (the hooks' signal) and pause (isPaused) told to Python; a stop not honoured in time ends it. */
function steer(proc: PythonProcess, hooks: FollowHooks, paused0: boolean): { dispose: () => void } {
  let paused = paused0;
  let kill: NodeJS.Timeout | null = null;
  const onAbort = () => {
    proc.say('stop');
    kill ??= setTimeout(() => proc.kill(), STOP_GRACE_MS);
  };
  hooks.signal?.addEventListener('abort', onAbort);
  if (hooks.signal?.aborted) onAbort();
  const poll = setInterval(() => {
    const want = hooks.isPaused?.() ?? false;
    if (want !== paused) {
      paused = want;
      proc.say(want ? 'pause' : 'resume');
    }
  }, 100);
  return {
    dispose: () => {
      clearInterval(poll);
      if (kill) clearTimeout(kill);
      hooks.signal?.removeEventListener('abort', onAbort);
    },
  };
}

/** The last lines Python wrote to python.log from `from` on (its own output), for the reason and events.log. */
export function pythonTail(outPath: string, from: number): string[] {
  let fd: number;
  let size: number;
  try {
    ({ fd, size } = openUserFile(outPath, "Python's output (python.log)"));
  } catch {
    return [];
  }
  try {
    const start = Math.max(from, size - TAIL_BYTES);
    if (size <= start) return [];
    const buf = Buffer.alloc(size - start);
    const n = readSync(fd, buf, 0, buf.length, start);
    const lines = buf.subarray(0, n).toString('utf8').split('\n');
    if (start > from) lines.shift(); // a line cut at the window's start
    return lines.filter((l) => l.trim()).slice(-200);
  } finally {
    closeSync(fd);
  }
}

/**
 * A failure's reason from Python's output: CUDA out of memory named with the batch size (and the
 * micro-batch it ran in), suggesting micro-batches half as large; else the traceback's last line.
 */
export function pythonFailureReason(tail: string[], code: number | null, batchSize: number, microBatch?: number): string {
  const text = tail.join('\n');
  if (/CUDA out of memory|OutOfMemoryError/.test(text)) {
    const piece = microBatch && microBatch < batchSize ? microBatch : batchSize;
    const at = `batch size ${batchSize}${piece < batchSize ? ` in micro-batches of ${piece}` : ''}`;
    const fix = piece > 1
      ? `set microBatch to ${Math.floor(piece / 2)} (the same batch of ${batchSize} in smaller pieces, the same numbers up to float rounding), or lower batchSize or the model's width/depth`
      : "one sample does not fit: lower the model's width/depth or the grid";
    return `PyTorch ran out of GPU memory (CUDA out of memory) at ${at}: ${fix}`;
  }
  const last = [...tail].reverse().find((l) => l.trim() && !l.startsWith(' ')) ?? '';
  return `PyTorch exited with ${code === null ? 'an unknown code (started by an earlier engine)' : `code ${code}`}: ${last.trim() || 'no output'}`;
}

/** Whether Python's output ends in a traceback (an adopted Python's crash, whose exit code nobody can read). */
const hasTraceback = (tail: string[]) => tail.some((l) => l.startsWith('Traceback (most recent call last)'));

/** The run's end as Python left it: done/stopped/failed from status.json, a crash or a kill from the exit. */
export function outcome(run: RunHandle, p: Pick<FollowPlan, 'batchSize' | 'microBatch' | 'device'>, exit: PythonExit, tail: string[], log: (m: string) => void): RunOutcome {
  const st = run.readStatus();
  const at = { epoch: st.epoch ?? 0, step: st.step ?? 0 };
  const backend = st.backend ?? `torch-${p.device}`;
  if (st.state === 'done' || st.state === 'stopped') return { state: st.state, ...(st.reason ? { reason: st.reason } : {}), ...at };
  const killed = exit
    ? exit.signal === 'SIGKILL' || (exit.signal !== null && exit.code === null && st.state !== 'failed')
    : st.state !== 'failed' && !hasTraceback(tail);
  if (killed) {
    const how = exit ? `was killed (${exit.signal})` : 'ended without recording its end and without a traceback (killed, or its machine stopped)';
    const reason = `the PyTorch process ${how}; checkpoints/last holds epoch ${at.epoch}: resume on either backend`;
    // left 'running' with Python's pid, now gone: the run store lists it as interrupted
    log(reason);
    return { state: 'interrupted', reason, ...at };
  }
  const reason = st.state === 'failed' && st.reason ? st.reason : pythonFailureReason(tail, exit?.code ?? null, p.batchSize, p.microBatch);
  const t = tail.slice(-TAIL_LINES).join('\n').trim();
  run.writeStatus({ state: 'failed', pid: process.pid, backend, reason, ...at });
  log(`failed: ${reason}${t ? `\nPython's last output:\n${t}` : ''}`);
  return { state: 'failed', reason, ...at };
}
