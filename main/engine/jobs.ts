// Long work in the engine: a queue that runs one job at a time, reports progress and ETA,
// and cancels cooperatively through an AbortSignal.
import { randomUUID } from 'node:crypto';
import { ApiError } from '../api/api-error';
import type { JobKind, JobSummary } from '../api/contract';
import { errorMessage } from '../util/error-message';

export interface JobContext {
  signal: AbortSignal;
  /** fraction in [0, 1] and an optional message; ETA is derived from elapsed time unless the job knows better (etaSeconds). */
  progress(fraction: number, message?: string, etaSeconds?: number | null): void;
}

export type JobHandler = (params: Record<string, unknown>, ctx: JobContext) => Promise<unknown>;

export interface JobDefinition {
  label: (params: Record<string, unknown>) => string;
  run: JobHandler;
}

interface JobRecord {
  summary: JobSummary;
  controller: AbortController;
  params: Record<string, unknown>;
  startMs: number;
}

/** The engine's queue runs the contract's job kinds (JobKind); a test may run kinds of its own (K = string). */
export class JobQueue<K extends string = JobKind> {
  private readonly kinds = new Map<K, JobDefinition>();
  private readonly jobs = new Map<string, JobRecord>();
  private readonly order: string[] = [];
  private running: string | null = null;

  constructor(private readonly emit: (job: JobSummary) => void, private readonly now: () => number = Date.now) {}

  register(kind: K, def: JobDefinition): void {
    this.kinds.set(kind, def);
  }

  start(kind: K, params: Record<string, unknown>): JobSummary {
    const def = this.kinds.get(kind);
    if (!def) throw new ApiError(`unknown job kind '${kind}'`, 'invalid_params', { field: 'kind' });
    const id = randomUUID().slice(0, 8);
    const summary: JobSummary = {
      id, kind, state: 'queued', label: def.label(params), progress: 0, etaSeconds: null, startedAt: null, endedAt: null,
    };
    this.jobs.set(id, { summary, controller: new AbortController(), params, startMs: 0 });
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

  list(): JobSummary[] {
    return this.order.map((id) => ({ ...this.jobs.get(id)!.summary }));
  }

  private finish(rec: JobRecord, state: JobSummary['state'], extra: Partial<JobSummary> = {}) {
    Object.assign(rec.summary, { state, endedAt: new Date(this.now()).toISOString(), etaSeconds: null }, extra);
    if (state === 'done') rec.summary.progress = 1;
    this.emit({ ...rec.summary });
  }

  private async pump(): Promise<void> {
    if (this.running) return;
    const next = this.order.map((id) => this.jobs.get(id)!).find((r) => r.summary.state === 'queued');
    if (!next) return;
    const def = this.kinds.get(next.summary.kind as K)!;
    this.running = next.summary.id;
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
      const result = await def.run(next.params, ctx);
      if (next.controller.signal.aborted) this.finish(next, 'cancelled');
      else this.finish(next, 'done', { result });
    } catch (e) {
      if (next.controller.signal.aborted) this.finish(next, 'cancelled');
      else this.finish(next, 'failed', { error: errorMessage(e) });
    } finally {
      this.running = null;
      queueMicrotask(() => this.pump());
    }
  }
}
