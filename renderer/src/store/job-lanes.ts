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

/** A job as the Queue card names it: a training job by its run's name ("Train walk LiNO"), not the engine's label with the run's id. */
export function jobDisplayLabel(job: JobSummary, runs: readonly { id: string; name: string }[]): string {
  const m = /^Train run (.+)$/.exec(job.label);
  const run = m ? runs.find((r) => r.id === m[1]) : undefined;
  return run ? `Train ${run.name}` : job.label;
}
