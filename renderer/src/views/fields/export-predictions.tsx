// "Export predictions": a run's decoded predictions for a split, with the decoded reference and the
// rows' sample indices alongside, as three .npy files or one MATLAB v7.3 .mat, into the workspace's
// exports/ folder. The same evaluation and files as `lino eval --export` (runs.evaluate with
// exportPredictions), so the numbers are those the Fields view scores.
import { useId, useState } from 'react';
import type { RunSummary } from '../../../../main/api/contract';
import { useEvaluation, useEvaluationStore } from '../../stores/evaluations';
import { useApp } from '../../stores/app-store';
import { usePersisted, oneOf } from '../../stores/persisted-state';
import { downloadExport } from '../../export/save';
import { SaveCopyButton } from '../../export/save-copy-button';
import { errorText } from '../../api/error-text';

type Split = 'val' | 'test' | 'train';

/** A host path's last part: exports.read and exports.saveAs take names inside exports/. */
const baseName = (p: string) => p.split(/[\\/]/).pop() ?? p;

export function ExportPredictions({ run }: { run: RunSummary }) {
  const api = useApp((s) => s.api);
  const cancelJob = useApp((s) => s.cancelJob);
  const browser = useApp((s) => s.host?.kind === 'browser');
  const [split, setSplit] = usePersisted<Split>('fields.exportSplit', 'val', oneOf('val', 'test', 'train'));
  const [format, setFormat] = usePersisted<'npy' | 'mat'>('fields.exportFormat', 'npy', oneOf('npy', 'mat'));
  const [checkpoint, setCheckpoint] = usePersisted<'best' | 'last'>('fields.exportCheckpoint', 'best', oneOf('best', 'last'));
  const [error, setError] = useState<string | null>(null);
  const fid = useId();
  const evals = useEvaluation();
  const key = `export-predictions|${run.id}`;
  const { job, busy, result } = evals.state(key);
  const startError = useEvaluationStore((s) => s.startErrors[key]);
  const files = (result?.resolutions[0]?.exportFiles ?? []).map(baseName);

  const start = async () => {
    setError(null);
    await evals.start(key, { id: run.id, checkpoint, split, exportPredictions: true, exportFormat: format });
  };
  const download = (name: string) => {
    if (api) downloadExport(api, name).catch((e) => setError(`Download failed: ${errorText(e)}`));
  };

  return (
    <div className="card" role="region" aria-labelledby={`${fid}-t`} data-testid="export-predictions">
      <h2 id={`${fid}-t`}>Export predictions</h2>
      <p className="muted small">
        The decoded predictions for a split, with the reference and each row's sample index, into the workspace's exports folder (as <code>lino eval --export</code>).
      </p>
      <div className="row wrap">
        <label htmlFor={`${fid}-s`}>Split</label>
        <select id={`${fid}-s`} value={split} onChange={(e) => setSplit(e.target.value as Split)} data-testid="export-predictions-split">
          <option value="val">validation</option>
          <option value="test">test</option>
          <option value="train">train</option>
        </select>
        <label htmlFor={`${fid}-c`}>Checkpoint</label>
        <select id={`${fid}-c`} value={checkpoint} onChange={(e) => setCheckpoint(e.target.value as 'best' | 'last')}>
          <option value="best">best</option>
          <option value="last">last</option>
        </select>
        <label htmlFor={`${fid}-f`}>Format</label>
        <select id={`${fid}-f`} value={format} onChange={(e) => setFormat(e.target.value as 'npy' | 'mat')} data-testid="export-predictions-format">
          <option value="npy">NumPy (.npy: predictions, reference, indices)</option>
          <option value="mat">MATLAB v7.3 (.mat)</option>
        </select>
        <button onClick={() => void start()} disabled={busy || !api} data-testid="export-predictions-start">Export predictions (.npy / .mat)</button>
      </div>
      {error && <p className="error-message" role="alert">{error}</p>}
      {startError && <p className="error-message" role="alert">Could not start the export: {startError}</p>}
      {job && (
        <div data-testid={`export-predictions-${job.state}`}>
          {busy && (
            <>
              <progress max={1} value={job.progress} aria-label="Predictions export progress" /> {Math.round(job.progress * 100)}% {job.message ?? ''}{' '}
              <button className="link" onClick={() => void cancelJob(job.id)}>Cancel</button>
            </>
          )}
          {job.state === 'done' && (
            <ul role="status" className="small">
              {files.map((f) => (
                <li key={f} data-testid="export-predictions-file">
                  <code>exports/{f}</code>{' '}
                  {browser ? <button className="link" onClick={() => download(f)}>Download</button> : <SaveCopyButton name={f} />}
                </li>
              ))}
            </ul>
          )}
          {job.state === 'cancelled' && <span className="muted">Export cancelled.</span>}
          {job.state === 'failed' && <span className="error-message" role="alert">Export failed: {job.error}</span>}
        </div>
      )}
    </div>
  );
}
