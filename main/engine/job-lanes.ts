// Which lane each job kind runs in, and how many of a lane's jobs run at once. Lanes run beside each
// other, so an evaluation or a generation never waits behind a long training run. A table keyed by
// every job kind of the contract: a kind without its lane does not compile, and JobQueue.register
// refuses any other kind that does not name its own.
import { availableParallelism } from 'node:os';
import type { LaneId } from '../api/job-lanes';
import type { JobKind } from '../api/jobs';

export { LANE_ORDER } from '../api/job-lanes';

export const LANE_OF_KIND: Record<JobKind, LaneId> = {
  train: 'training',
  // a reproduction trains its runs in the engine: it shares the training lane's slots
  reproduce: 'training',
  evaluate: 'evaluation',
  'lightmaps-correlation': 'analysis',
  // timings: beside no other analysis job of this engine (the lane runs one at a time)
  cost: 'analysis',
  // a timing as well: torch's steps and the engine's, with no other analysis job beside them
  'torch-speed': 'analysis',
  // the Playground's truth: its own lane, so a solve never waits behind an evaluation or a generation
  'playground-solve': 'playground-solve',
  generate: 'data',
  import: 'data',
  export: 'export',
  'cluster-export': 'export',
  selftest: 'system',
};

/** The lane of one of the contract's job kinds; undefined for any other name. */
export function laneOf(kind: string): LaneId | undefined {
  return Object.hasOwn(LANE_OF_KIND, kind) ? LANE_OF_KIND[kind as JobKind] : undefined;
}

export const MAX_TRAINING_SLOTS = 8;

/**
 * Training runs at once: LINO_TRAINING_SLOTS when set (1..8), else 1 on a machine with fewer than
 * 8 cores, else one run per 4 cores (each run is a worker with its own backend threads) up to 4.
 */
export function defaultTrainingSlots(env: NodeJS.ProcessEnv = process.env, cores = availableParallelism()): number {
  const raw = env.LINO_TRAINING_SLOTS;
  if (raw !== undefined && raw !== '') {
    const n = Number(raw);
    if (!Number.isInteger(n) || n < 1 || n > MAX_TRAINING_SLOTS) {
      throw new Error(`environment LINO_TRAINING_SLOTS: expected an integer from 1 to ${MAX_TRAINING_SLOTS}, got '${raw}'`);
    }
    return n;
  }
  if (cores < 8) return 1;
  return Math.min(4, Math.floor(cores / 4));
}
