// "Run on a cluster…": exports a run for PyTorch's distributed engine (runs.exportForCluster, the
// same folder as `lino export-run`) into a new folder under exports/ that the host names after the
// run, as a job with progress and cancel; then shows the folder and the torchrun command.
import { useId, useState } from 'react';
import { ClusterExportResult, type JobSummary, type RunSummary } from '../../../../main/api/contract';
import { useApp } from '../../stores/app-store';
import { exportForCluster } from '../../queries/run-actions';
import { errorText } from '../../api/error-text';
import { NumberField } from '../../components/number-field';

export function RunClusterExport({ run }: { run: RunSummary }) {
  const connected = useApp((s) => !!s.api);
  const cancelJob = useApp((s) => s.cancelJob);
  const jobs = useApp((s) => s.jobs);
  const [nproc, setNproc] = useState(1);
  const [nodes, setNodes] = useState(1);
  const [jobId, setJobId] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const fid = useId();
  const job: JobSummary | undefined = jobId ? jobs[jobId] : undefined;
  const busy = job?.state === 'queued' || job?.state === 'running';
  const parsed = job?.state === 'done' ? ClusterExportResult.safeParse(job.result) : null;
  const result = parsed?.success ? parsed.data : null;

  const start = async () => {
    setError(null);
    try {
      setJobId(await exportForCluster(run.id, nproc, nodes));
    } catch (e) {
      setError(`Could not start the export: ${errorText(e)}`);
    }
  };
  const int = (v: number) => Math.max(1, Math.floor(v) || 1);

  return (
    <div className="card" role="region" aria-labelledby={`${fid}-t`} data-testid="run-cluster-export">
      <h2 id={`${fid}-t`}>Run on a cluster: {run.name}</h2>
      <p className="muted small">
        Writes the run's data, config, the PyTorch trainer (<code>scaleout/</code>), <code>run.sh</code>, a SLURM template and a README into the
        workspace's exports folder, as <code>lino export-run</code> does. Copy the trained run back into <code>runs/</code> to open and resume it here.
      </p>
      <div className="row wrap">
        <NumberField label="GPUs per node" inline value={nproc} onChange={(v) => setNproc(int(v))} min={1} max={64} width="4em" />
        <NumberField label="Nodes" inline value={nodes} onChange={(v) => setNodes(int(v))} min={1} max={1024} width="4em" />
        <button onClick={() => void start()} disabled={busy || !connected} data-testid="run-cluster-export-start">Run on a cluster…</button>
      </div>
      {error && <p className="error-message" role="alert">{error}</p>}
      {job && (
        <div data-testid={`run-cluster-export-${job.state}`}>
          {busy && (
            <>
              <progress max={1} value={job.progress} aria-label="Cluster export progress" /> {Math.round(job.progress * 100)}% {job.message ?? ''}{' '}
              <button className="link" onClick={() => void cancelJob(job.id)}>Cancel</button>
            </>
          )}
          {result && (
            <div role="status">
              <p>
                Exported to <code className="selectable" data-testid="run-cluster-export-path">{result.path}</code> ({result.files.length} files).
              </p>
              <p className="small">In that folder, on the cluster (or <code>./run.sh</code>; <code>sbatch slurm.sbatch</code> for SLURM):</p>
              <pre className="selectable small" data-testid="run-cluster-export-command">{result.command}</pre>
              <p className="muted small">The trained run is written to <code>{result.runDir}/</code> there.</p>
            </div>
          )}
          {job.state === 'cancelled' && <span className="muted">Export cancelled; nothing was written.</span>}
          {job.state === 'failed' && <span className="error-message" role="alert">Export failed: {job.error}</span>}
        </div>
      )}
    </div>
  );
}
