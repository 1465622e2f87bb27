// Long work in the engine: jobs queue in lanes (job-lanes.ts) that run beside each other, each lane
// running its jobs in order, as many at once as its slots allow; progress, ETA, and cooperative
// cancel through an AbortSignal.
import { randomUUID } from 'node:crypto';
import { ApiError } from '../api/api-error';
import type { JobSummary } from '../api/contract';
import { errorMessage } from '../util/error-message';
import { laneOf } from './job-lanes';
import type { JobParams } from './job-params';

export interface JobContext {
  signal: AbortSignal;
  /** fraction in [0, 1] and an optional message; ETA is derived from elapsed time unless the job knows better (etaSeconds). */
  progress(fraction: number, message?: string, etaSeconds?: number | null): void;
}

/** A job body: its kind's parameters (JobParams) and the context of its run. */
export type JobHandler<P> = (params: P, ctx: JobContext) => Promise<unknown>;

export interface JobDefinition<P> {
  label: (params: P) => string;
  run: JobHandler<P>;
  /** A kind outside the contract's (a test's own) names its lane; the contract's kinds take theirs from their declaration (JOB_KINDS). */
  lane?: string;
}

interface JobRecord {
  summary: JobSummary;
  lane: string;
  controller: AbortController;
  /** The kind's body bound to the parameters it was started with. */
  run: (ctx: JobContext) => Promise<unknown>;
  startMs: number;
}

/**
 * Runs `fn` after the event loop has polled for I/O once. A lane's next job starts only then: a job
 * that never yields to the event loop (an export writes its files synchronously) would otherwise
 * hand its slot straight to the next queued job, and a jobs.cancel for that job, which arrived as a
 * message while the first one ran, would be read only after it had run too (answering ok: false).
 * Two immediates: the first runs in the check phase of the turn that is ending, the second one turn
 * later, after that turn's poll phase has read the messages waiting.
 */
function afterIoTurn(fn: () => void): void {
  setImmediate(() => setImmediate(fn));
}

/**
 * The engine's queue runs the contract's job kinds with their parameters (JobParams); a test may run
 * kinds of its own (T: each kind's parameters). start() takes exactly what register()'s body reads.
 */
export class JobQueue<T extends object = JobParams> {
  private readonly kinds: { [K in keyof T]?: JobDefinition<T[K]> } = {};
  private readonly jobs = new Map<string, JobRecord>();
  private readonly order: string[] = [];
  /** Jobs running now, per lane. */
  private readonly running = new Map<string, Set<string>>();
  /** Slots per lane (1 unless set). */
  private readonly slots = new Map<string, number>();

  constructor(private readonly emit: (job: JobSummary) => void, private readonly now: () => number = Date.now) {}

  /** How many of a lane's jobs run at once; raising it starts queued jobs at once. */
  setSlots(lane: string, n: number): void {
    if (!Number.isInteger(n) || n < 1) throw new Error(`jobs: lane '${lane}': slots: expected an integer of at least 1, got ${n}`);
    this.slots.set(lane, n);
    queueMicrotask(() => this.pump());
  }

  slotsOf(lane: string): number {
    return this.slots.get(lane) ?? 1;
  }

  register<K extends keyof T & string>(kind: K, def: JobDefinition<T[K]>): void {
    const lane = def.lane ?? laneOf(kind);
    if (!lane) throw new Error(`job kind '${kind}' has no lane: declare it with its lane in JOB_KINDS (main/api/jobs.ts)`);
    this.kinds[kind] = { ...def, lane };
  }

  start<K extends keyof T & string>(kind: K, params: T[K]): JobSummary {
    const def = Object.hasOwn(this.kinds, kind) ? this.kinds[kind] : undefined;
    if (!def) throw new ApiError(`unknown job kind '${kind}'`, 'invalid_params', { field: 'kind' });
    const id = randomUUID().slice(0, 8);
    const lane = def.lane!; // set by register()
    const summary: JobSummary = {
      id, kind, lane, seq: this.order.length + 1, state: 'queued', label: def.label(params), progress: 0, etaSeconds: null, startedAt: null, endedAt: null,
    };
    this.jobs.set(id, { summary, lane, controller: new AbortController(), run: (ctx) => def.run(params, ctx), startMs: 0 });
    this.order.push(id);
    this.emit({ ...summary });
    queueMicrotask(() => this.pump());
    return { ...summary };
  }

  cancel(id: string): boolean {
    const rec = this.jobs.get(id);
    if (!rec) return false;
    if (rec.summary.state === 'queued') {
      this.finish(rec, 'cancelled');
      return true;
    }
    if (rec.summary.state === 'running') {
      rec.controller.abort();
      return true;
    }
    return false;
  }

  /** Each lane (the given ones first, then any other a job used) with its slots and its running and queued jobs. */
  lanes(order: readonly string[]): { lane: string; slots: number; running: number; queued: number }[] {
    const names = [...order];
    for (const id of this.order) {
      const lane = this.jobs.get(id)!.lane;
      if (!names.includes(lane)) names.push(lane);
    }
    const count = (lane: string, state: JobSummary['state']) => this.list().filter((j) => j.lane === lane && j.state === state).length;
    return names.map((lane) => ({ lane, slots: this.slotsOf(lane), running: count(lane, 'running'), queued: count(lane, 'queued') }));
  }

  list(): JobSummary[] {
    return this.order.map((id) => ({ ...this.jobs.get(id)!.summary }));
  }

  private finish(rec: JobRecord, state: JobSummary['state'], extra: Partial<JobSummary> = {}) {
    Object.assign(rec.summary, { state, endedAt: new Date(this.now()).toISOString(), etaSeconds: null }, extra);
    if (state === 'done') rec.summary.progress = 1;
    this.emit({ ...rec.summary });
  }

  /** Starts every queued job whose lane has a free slot, oldest first. */
  private pump(): void {
    for (const id of this.order) {
      const rec = this.jobs.get(id)!;
      if (rec.summary.state !== 'queued') continue;
      const lane = rec.lane;
      const busy = this.running.get(lane) ?? new Set<string>();
      if (busy.size >= this.slotsOf(lane)) continue;
      busy.add(id);
      this.running.set(lane, busy);
      void this.runOne(rec, busy);
    }
  }

  private async runOne(next: JobRecord, busy: Set<string>): Promise<void> {
    next.startMs = this.now();
    Object.assign(next.summary, { state: 'running', startedAt: new Date(next.startMs).toISOString() });
    this.emit({ ...next.summary });
    const ctx: JobContext = {
      signal: next.controller.signal,
      progress: (fraction, message, etaSeconds) => {
        const f = Math.min(1, Math.max(0, fraction));
        const elapsed = (this.now() - next.startMs) / 1000;
        next.summary.progress = f;
        next.summary.etaSeconds = etaSeconds !== undefined ? etaSeconds : f > 0 ? (elapsed * (1 - f)) / f : null;
        if (message !== undefined) next.summary.message = message;
        this.emit({ ...next.summary });
      },
    };
    try {
      const result = await next.run(ctx);
      if (next.controller.signal.aborted) this.finish(next, 'cancelled');
      else this.finish(next, 'done', { result });
    } catch (e) {
      if (next.controller.signal.aborted) this.finish(next, 'cancelled');
      else this.finish(next, 'failed', { error: errorMessage(e) });
    } finally {
      busy.delete(next.summary.id);
      afterIoTurn(() => this.pump());
    }
  }
}
