// A run's time left from its step rate, for the Queue card and the Training view (the training
// jobs feed it every step and epoch, ./train-jobs.ts).

/** Steps timed before a run's ETA is shown (the first epoch's ETA comes from them, not from epochs). */
export const ETA_MIN_STEPS = 3;

/**
 * A run's time left from its step rate: the median wall interval between recent steps (a pause,
 * a checkpoint or a validation pass is one long interval the median ignores), times the steps
 * left, plus each remaining epoch's validation once one epoch has shown how long it takes.
 */
export class StepEta {
  private last: number | null = null;
  private gaps: number[] = [];
  private seen = 0;
  private validationSeconds = 0;

  constructor(private readonly now = () => performance.now()) {}

  step(): void {
    const t = this.now();
    if (this.last !== null) {
      this.gaps.push(t - this.last);
      if (this.gaps.length > 21) this.gaps.shift();
    }
    this.last = t;
    this.seen++;
  }

  /** The epoch's wall time beyond its steps is its validation (and checkpoint). */
  epoch(epochSeconds: number, stepsPerEpoch: number): void {
    const ms = this.msPerStep();
    if (ms !== null && Number.isFinite(epochSeconds)) this.validationSeconds = Math.max(0, epochSeconds - (stepsPerEpoch * ms) / 1000);
  }

  msPerStep(): number | null {
    if (this.seen < ETA_MIN_STEPS || this.gaps.length === 0) return null;
    const g = [...this.gaps].sort((a, b) => a - b);
    const mid = g.length >> 1;
    return g.length % 2 ? g[mid]! : (g[mid - 1]! + g[mid]!) / 2;
  }

  /** Seconds left after global step `step` (in 1-based `epoch`) of `epochs * stepsPerEpoch`; null before ETA_MIN_STEPS steps. */
  eta(step: number, epoch: number, epochs: number, stepsPerEpoch: number): number | null {
    const ms = this.msPerStep();
    if (ms === null) return null;
    const stepsLeft = Math.max(0, epochs * stepsPerEpoch - step);
    return (stepsLeft * ms) / 1000 + Math.max(0, epochs - epoch + 1) * this.validationSeconds;
  }
}
