// How a sweep draws its next configuration, as Optuna splits it: a Sampler (grid, random, TPE) gives
// the k-th configuration from the results so far; the runner knows no method by name. A new method
// is one class here and its name in SWEEP_METHODS (./sweep-config.ts).
import type { SweepConfig, SweepParams } from './sweep-config';
import { gridPoint, gridSize, randomPoint, samplerRng } from './space';
import { tpeSuggest, type Observation } from './tpe';

export interface Sampler {
  /** Configurations it can give in all (the grid's size), or null where it draws without end. */
  readonly total: number | null;
  /** Why its trials cannot all be listed before any trains (an export for a cluster), or null when they can. */
  readonly unplannable: string | null;
  /** The k-th configuration, given the objectives of the configurations that have ended (its draws repeat on a resume). */
  suggest(k: number, history: readonly Observation[]): SweepParams;
}

/** Every combination of the axes once, the last axis varying fastest. */
export class GridSampler implements Sampler {
  readonly total: number;
  readonly unplannable = null;
  constructor(private readonly sweep: SweepConfig) {
    this.total = gridSize(sweep.axes);
  }
  suggest(k: number): SweepParams {
    return gridPoint(this.sweep.axes, k);
  }
}

/** Independent uniform draws (log-uniform on log ranges), one seeded stream per configuration. */
export class RandomSampler implements Sampler {
  readonly total = null;
  readonly unplannable: string | null;
  constructor(private readonly sweep: SweepConfig) {
    this.unplannable = sweep.budget.maxTrials === undefined ? "field 'budget.maxTrials': a random sweep needs it to be exported" : null;
  }
  suggest(k: number): SweepParams {
    return randomPoint(this.sweep.axes, samplerRng(this.sweep.samplerSeed, k));
  }
}

/** Tree-structured Parzen estimator (./tpe.ts): each draw from the results so far. */
export class TpeSampler implements Sampler {
  readonly total = null;
  readonly unplannable = 'a TPE sweep draws each configuration from the results so far; export a grid or a random sweep';
  constructor(private readonly sweep: SweepConfig) {}
  suggest(k: number, history: readonly Observation[]): SweepParams {
    return tpeSuggest(this.sweep.axes, history, samplerRng(this.sweep.samplerSeed, k), this.sweep.tpe);
  }
}

const SAMPLERS: Record<SweepConfig['method'], new (sweep: SweepConfig) => Sampler> = { grid: GridSampler, random: RandomSampler, tpe: TpeSampler };

/**
 * The trials a sweep will run, known before any trains: a grid's size times the seeds, cut by
 * budget.maxTrials (a configuration starts only when all its seeds fit); otherwise only an upper
 * bound (budget.maxTrials, in whole configurations) or none. A wall-time budget may end either sooner.
 */
export function plannedTrials(sweep: SweepConfig): { planned: number | null; atMost: number | null } {
  const total = samplerOf(sweep).total;
  const byBudget = sweep.budget.maxTrials === undefined ? null : Math.floor(sweep.budget.maxTrials / sweep.seeds);
  const configs = total === null ? byBudget : byBudget === null ? total : Math.min(total, byBudget);
  const trials = configs === null ? null : configs * sweep.seeds;
  return total === null ? { planned: null, atMost: trials } : { planned: trials, atMost: trials };
}

export function samplerOf(sweep: SweepConfig): Sampler {
  return new SAMPLERS[sweep.method](sweep);
}
