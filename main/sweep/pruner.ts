// When a sweep stops a trial early, as Optuna splits it: a Pruner names the epochs at which trials
// are compared (rungs) and decides at each one from the values recorded there. None, or ASHA
// (./asha.ts); the runner knows no rule by name.
import type { SweepConfig } from './sweep-config';
import { ashaDecision, ashaRungs } from './asha';
import type { EarlyStopping } from './sweep-config';

export interface Pruner {
  /** The epochs at which a trial of `epochs` epochs is compared. */
  rungs(epochs: number): number[];
  /** Continue or stop a trial with `value` at a rung, given the values other trials recorded there before it. */
  decide(value: number, recordedBefore: readonly number[]): 'continue' | 'prune';
}

/** Every trial runs its epochs. */
export class NoPruner implements Pruner {
  rungs(): number[] {
    return [];
  }
  decide(): 'continue' {
    return 'continue';
  }
}

/** Asynchronous successive halving, the stopping variant (./asha.ts). */
export class AshaPruner implements Pruner {
  constructor(private readonly es: EarlyStopping) {}
  rungs(epochs: number): number[] {
    return ashaRungs(this.es, epochs);
  }
  decide(value: number, recordedBefore: readonly number[]): 'continue' | 'prune' {
    return ashaDecision(value, recordedBefore, this.es);
  }
}

export function prunerOf(sweep: SweepConfig): Pruner {
  return sweep.earlyStopping ? new AshaPruner(sweep.earlyStopping) : new NoPruner();
}
