// The Datasets view's statistics table (per channel, any split, computed by the engine from the
// store) and dataset export (a job writing into the workspace's exports/, as `lino data export`).
import { useId, useState } from 'react';
import type { JobSummary } from '../../../main/api/contract';
import { useApp } from '../stores/app-store';
import { exportDataset, useDatasetStats } from '../queries/datasets';
import { errorText } from '../api/error-text';
import { oneOf, usePersisted } from '../stores/persisted-state';

type Split = 'train' | 'val' | 'test';

const num = (v: number | null) => (v != null && Number.isFinite(v) ? v.toPrecision(5) : '—');

export function DatasetStatsCard({ id }: { id: string }) {
  const [split, setSplit] = usePersisted<Split>('datasets.statsSplit', 'train', oneOf('train', 'val', 'test'));
  const query = useDatasetStats(id, split);
  const stats = query.value;
  const error = query.error ? `Could not compute the statistics: ${query.error}` : null;
  const fid = useId();

  const rows = stats ? [...stats.x.map((c) => ({ role: 'input', ...c })), ...stats.y.map((c) => ({ role: 'target', ...c }))] : [];
  return (
    <div className="card" role="region" aria-labelledby={`${fid}-t`} data-testid="channel-stats">
      <h2 id={`${fid}-t`}>Channel statistics</h2>
      <div className="row">
        <label htmlFor={`${fid}-split`}>Split</label>
        <select id={`${fid}-split`} value={split} onChange={(e) => setSplit(e.target.value as Split)} data-testid="stats-split">
          <option value="train">train</option>
          <option value="val">validation</option>
          <option value="test">test</option>
        </select>
        {stats && <span className="muted small" data-testid="stats-count">{stats.count} rows, grid {stats.grid.join(' × ')}, physical units</span>}
      </div>
      {error && <p className="error-message" role="alert">{error}</p>}
      {!stats && !error && <p className="muted">Computing…</p>}
      {stats && stats.count === 0 && <p className="muted">The {split} split has no rows.</p>}
      {stats && stats.count > 0 && (
        <table className="stats-table small">
          <caption className="muted">Per channel (same column order as the normalizer's statistics above), over every point of every {split} row</caption>
          <thead>
            <tr><th scope="col">Channel</th><th scope="col">mean</th><th scope="col">std</th><th scope="col">min</th><th scope="col">max</th></tr>
          </thead>
          <tbody>
            {rows.map((r) => (
              <tr key={`${r.role}-${r.name}`} data-testid={`stats-row-${r.role}-${r.name}`}>
                <th scope="row">{r.role} {r.name}</th>
                <td data-stat="mean">{num(r.mean)}</td>
                <td data-stat="std">{num(r.std)}</td>
                <td data-stat="min">{num(r.min)}</td>
                <td data-stat="max">{num(r.max)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </div>
  );
}

export function DatasetExportCard({ id }: { id: string }) {
  const cancelJob = useApp((s) => s.cancelJob);
  const jobs = useApp((s) => s.jobs);
  const setView = useApp((s) => s.setView);
  const [format, setFormat] = usePersisted<'mat73' | 'npy'>('datasets.exportFormat', 'mat73', oneOf('mat73', 'npy'));
  const [layout, setLayout] = usePersisted<'raw' | 'prepared'>('datasets.exportLayout', 'raw', oneOf('raw', 'prepared'));
  const [jobId, setJobId] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const fid = useId();
  const job: JobSummary | undefined = jobId ? jobs[jobId] : undefined;
  const busy = job?.state === 'queued' || job?.state === 'running';

  const start = async () => {
    setError(null);
    try {
      setJobId(await exportDataset({ id, format, layout }));
    } catch (e) {
      setError(`Could not start the export: ${errorText(e)}`);
    }
  };

  const result = job?.state === 'done' ? (job.result as { folder: string; files: string[]; bytes: number }) : null;
  return (
    <div className="card" role="region" aria-labelledby={`${fid}-t`} data-testid="dataset-export">
      <h2 id={`${fid}-t`}>Export this dataset</h2>
      <p className="muted small">For the PyTorch LiNO release and FNO scripts, as <code>lino data export</code> writes it, into the workspace's exports folder.</p>
      <div className="row wrap">
        <label htmlFor={`${fid}-f`}>Format</label>
        <select id={`${fid}-f`} value={format} onChange={(e) => setFormat(e.target.value as 'mat73' | 'npy')} data-testid="export-format">
          <option value="mat73">MATLAB v7.3 (.mat)</option>
          <option value="npy">NumPy (.npy per variable)</option>
        </select>
        <label htmlFor={`${fid}-l`}>Layout</label>
        <select id={`${fid}-l`} value={layout} onChange={(e) => setLayout(e.target.value as 'raw' | 'prepared')}>
          <option value="raw">raw (physical fields, published layout)</option>
          <option value="prepared">prepared (normalized, as the model sees it)</option>
        </select>
        <button onClick={start} disabled={busy} data-testid="dataset-export-start">Export</button>
      </div>
      {error && <p className="error-message" role="alert">{error}</p>}
      {job && (
        <div data-testid={`dataset-export-${job.state}`}>
          {busy && (
            <>
              <progress max={1} value={job.progress} aria-label="Dataset export progress" /> {Math.round(job.progress * 100)}% {job.message ?? ''}{' '}
              <button className="link" onClick={() => void cancelJob(job.id)}>Cancel</button>
            </>
          )}
          {result && (
            <span>
              Exported to <code>exports/{result.folder}/</code> ({result.files.length} files, {(result.bytes / 1024).toFixed(1)} KiB).{' '}
              <button className="link" onClick={() => setView('export')}>Show in the Export view</button>
            </span>
          )}
          {job.state === 'cancelled' && <span className="muted">Export cancelled; nothing was written.</span>}
          {job.state === 'failed' && <span className="error-message" role="alert">Export failed: {job.error}</span>}
        </div>
      )}
    </div>
  );
}
