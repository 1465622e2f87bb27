// The Queue card: each lane with what runs now and what waits, in the order the lane runs them
// (lanes run beside each other, so an evaluation never waits behind training).
import { useMemo } from 'react';
import { useApp } from '../../store/app-store';
import { laneQueues } from '../../store/job-lanes';

export function QueueCard() {
  const jobs = useApp((s) => s.jobs);
  const cancelJob = useApp((s) => s.cancelJob);
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
                {j.label} — {j.state === 'running' ? `running ${Math.round(j.progress * 100)}%` : 'queued'}{' '}
                <button className="link" onClick={() => void cancelJob(j.id)} aria-label={`Cancel ${j.label}`}>Cancel</button>
              </li>
            ))}
          </ol>
        </div>
      ))}
    </div>
  );
}
