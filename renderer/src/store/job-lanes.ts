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
