// How many of a lane's jobs run at once, and the lane of each job kind (declared with the kind, in
// JOB_KINDS of main/api/jobs.ts). Lanes run beside each other, so an evaluation or a generation never
// waits behind a long training run; JobQueue.register refuses any other kind that does not name its own.
import { availableParallelism } from 'node:os';
import type { LaneId } from '../api/job-lanes';
import { LANE_OF_KIND, type JobKind } from '../api/jobs';

export { LANE_ORDER } from '../api/job-lanes';
export { LANE_OF_KIND };

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
