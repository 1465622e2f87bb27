// Live metrics to the views at most 20 messages a second, each message carrying every step since the
// previous one (nothing is lost; metrics.jsonl has everything too). Used by ./train-jobs.ts.
import type { StepRecord, EpochRecord } from '../train/trainer';

export const MIN_EVENT_INTERVAL_MS = 50; // <= 20 messages per second

/**
 * Batches step records so that at most one message leaves per interval. Each epoch record seals
 * the steps before it into a segment of its own: a message carries one epoch record, so epochs
 * that end within one interval (a tiny run) leave in successive messages instead of the later
 * one replacing the earlier (a sweep's rungs and the curves read every epoch).
 */
export class MetricsThrottle {
  private steps: StepRecord[] = [];
  private readonly sealed: { steps: StepRecord[]; epoch: EpochRecord }[] = [];
  private timer: NodeJS.Timeout | null = null;
  private last = 0;

  constructor(private readonly send: (steps: StepRecord[], epoch?: EpochRecord) => void, private readonly interval = MIN_EVENT_INTERVAL_MS, private readonly now = Date.now) {}

  step(s: StepRecord): void {
    this.steps.push(s);
    this.schedule();
  }

  epoch(e: EpochRecord): void {
    this.sealed.push({ steps: this.steps, epoch: e });
    this.steps = [];
    this.schedule();
  }

  private pending(): boolean {
    return this.steps.length > 0 || this.sealed.length > 0;
  }

  private schedule(): void {
    if (this.timer || !this.pending()) return;
    const wait = this.last + this.interval - this.now();
    if (wait <= 0) this.flush();
    // Timers may fire a fraction of a millisecond early: re-check rather than trust them.
    if (!this.timer && this.pending()) {
      this.timer = setTimeout(() => {
        this.timer = null;
        this.schedule();
      }, Math.max(1, Math.ceil(this.last + this.interval - this.now())));
    }
  }

  /** Sends everything pending, one message per interval (the last messages of a run). */
  async drain(): Promise<void> {
    while (this.pending()) {
      for (let wait = this.last + this.interval - this.now(); wait > 0; wait = this.last + this.interval - this.now()) {
        await new Promise((r) => setTimeout(r, Math.ceil(wait)));
      }
      this.flush();
    }
  }

  /** Sends the oldest sealed epoch with its steps, or else the loose steps. */
  flush(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    const head = this.sealed.shift();
    if (head) this.send(head.steps, head.epoch);
    else if (this.steps.length > 0) {
      const steps = this.steps;
      this.steps = [];
      this.send(steps);
    } else return;
    // the interval counts from the end of a send, so messages are never closer than it
    this.last = this.now();
  }
}
