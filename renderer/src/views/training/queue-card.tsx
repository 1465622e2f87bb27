// The Queue card: each lane with what runs now and what waits, in the order the lane runs them
// (lanes run beside each other, so an evaluation never waits behind training).
import { useMemo } from 'react';
import { useApp } from '../../stores/app-store';
import { jobDisplayLabel, jobStateText, laneQueues } from '../../logic/job-lanes';
import { useTraining } from '../../stores/training-store';

export function QueueCard() {
  const jobs = useApp((s) => s.jobs);
  const cancelJob = useApp((s) => s.cancelJob);
  const runs = useTraining((s) => s.runs);
  const lanes = useMemo(() => laneQueues(jobs), [jobs]);
  if (lanes.length === 0) return null;
  return (
    <div className="card" data-testid="queue">
      <h2>Queue</h2>
      {lanes.map((l) => (
        <div key={l.lane} data-testid={`queue-lane-${l.lane}`}>
          <h3>{l.label}</h3>
          <ol>
            {l.jobs.map((j) => (
              <li key={j.id} data-testid="queue-job" data-state={j.state}>
                {jobDisplayLabel(j, runs)} — {jobStateText(j, runs)}{' '}
                <button className="link" onClick={() => void cancelJob(j.id)} aria-label={`Cancel ${jobDisplayLabel(j, runs)}`}>Cancel</button>
              </li>
            ))}
          </ol>
        </div>
      ))}
    </div>
  );
}
