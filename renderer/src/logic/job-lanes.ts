// The Queue card's reading of the engine's jobs: per lane (training, evaluation, ...), the jobs
// that run now and then the queued ones, in the order the lane runs them.
import type { JobSummary } from '../../../main/api/contract';
import { LANE_LABEL, LANE_ORDER, type LaneId } from '../../../main/api/job-lanes';

export interface LaneQueue {
  lane: string;
  label: string;
  jobs: JobSummary[];
}

export function laneQueues(jobs: Record<string, JobSummary>): LaneQueue[] {
  const live = Object.values(jobs).filter((j) => j.state === 'running' || j.state === 'queued');
  const order = (j: JobSummary) => (j.state === 'running' ? 0 : 1) * 1e9 + (j.seq ?? 0);
  const lanes = [...LANE_ORDER as readonly string[]];
  for (const j of live) if (j.lane && !lanes.includes(j.lane)) lanes.push(j.lane);
  return lanes
    .map((lane) => ({
      lane,
      label: Object.hasOwn(LANE_LABEL, lane) ? LANE_LABEL[lane as LaneId] : lane,
      jobs: live.filter((j) => (j.lane ?? 'training') === lane).sort((a, b) => order(a) - order(b)),
    }))
    .filter((l) => l.jobs.length > 0);
}

/** The run a training job trains ("Train run <id>"), when it is listed. */
function runOf<R extends { id: string }>(job: JobSummary, runs: readonly R[]): R | undefined {
  const m = /^Train run (.+)$/.exec(job.label);
  return m ? runs.find((r) => r.id === m[1]) : undefined;
}

/**
 * Where a job stands, in the Queue card's words: "running 77%", "queued", or "paused at 77%" for a
 * training job whose run is paused (its job holds the lane, still 'running' to the engine).
 */
export function jobStateText(job: JobSummary, runs: readonly { id: string; state: string }[]): string {
  if (job.state !== 'running') return job.state;
  const pct = `${Math.round(job.progress * 100)}%`;
  return runOf(job, runs)?.state === 'paused' ? `paused at ${pct}` : `running ${pct}`;
}

/** A job as the Queue card names it: a training job by its run's name ("Train walk LiNO"), not the engine's label with the run's id. */
export function jobDisplayLabel(job: JobSummary, runs: readonly { id: string; name: string }[]): string {
  const run = runOf(job, runs);
  return run ? `Train ${run.name}` : job.label;
}
