// The pause between training steps: while paused, wait() resolves only on resume(). Used by the
// engine's run jobs (per run) and by the training worker thread (its one run).
export class PauseGate {
  private pending: { promise: Promise<void>; open: () => void } | null = null;

  get paused(): boolean {
    return this.pending !== null;
  }

  /** Pauses (a second pause is the same pause). */
  pause(): void {
    if (this.pending) return;
    let open!: () => void;
    const promise = new Promise<void>((r) => (open = r));
    this.pending = { promise, open };
  }

  /** Lets every waiter continue. */
  resume(): void {
    this.pending?.open();
    this.pending = null;
  }

  /** Resolves at once unless paused; then on resume(). */
  wait(): Promise<void> {
    return this.pending?.promise ?? Promise.resolve();
  }
}
