// Progress of an engine job started from a view (evaluation, export): state, bar, ETA and Cancel,
// next to the button that started it; nothing once the job has ended (views show results or errors).
import type { JobSummary } from '../../../main/api/contract';
import { useApp } from '../stores/app-store';

export function JobProgress({ job, label, testId }: { job: JobSummary | undefined; label: string; testId?: string }) {
  const cancelJob = useApp((s) => s.cancelJob);
  if (!job || (job.state !== 'queued' && job.state !== 'running')) return null;
  const pct = Math.round(job.progress * 100);
  return (
    <span className="job-progress" role="status" data-testid={testId ?? `job-${job.state}`}>
      {label} {job.state}
      {job.state === 'running' && (
        <>
          {' '}
          <progress max={1} value={job.progress} aria-label={`${label} progress`} /> {pct}%
          {job.etaSeconds != null && `, ETA ${Math.ceil(job.etaSeconds)} s`}
          {job.message ? ` — ${job.message}` : ''}
        </>
      )}{' '}
      <button className="link" onClick={() => void cancelJob(job.id)} aria-label={`Cancel ${label.toLowerCase()}`}>
        Cancel
      </button>
    </span>
  );
}
