// A run's checkpoints (best, last): epoch, step, size and date, each downloadable. The weights are
// copied into exports/ by the host (runs.exportCheckpoint: run id and best|last, never a path),
// then downloaded by the browser (exports.read) or saved through Electron's dialog.
import { useEffect, useState } from 'react';
import type { RunSummary } from '../../../../main/api/contract';
import { formatBytes } from '../../logic/model-draft';
import { useRunCheckpoints, type RunCheckpoint as Entry } from '../../stores/runs-cache';
import { exportCheckpoint } from '../../queries/run-actions';
import { errorText } from '../../api/error-text';
import { SaveCopyButton } from '../../export/save-copy-button';

export function RunCheckpoints({ run }: { run: RunSummary }) {
  const checkpoints = useRunCheckpoints(run);
  const list = checkpoints?.value ?? null;
  const error = checkpoints?.error ? `Listing the checkpoints failed: ${checkpoints.error}` : null;
  const [status, setStatus] = useState<{ ok: boolean; text: string; name?: string } | null>(null);
  useEffect(() => setStatus(null), [run.id, run.epochsDone]);

  const download = async (c: Entry) => {
    setStatus(null);
    try {
      const r = await exportCheckpoint(run.id, c.checkpoint);
      setStatus({ ok: true, text: `Saved exports/${r.name} (${formatBytes(r.size)})`, name: r.name });
    } catch (e) {
      setStatus({ ok: false, text: `Download failed: ${errorText(e)}` });
    }
  };

  return (
    <div className="card" data-testid="run-checkpoints">
      <h2>Checkpoints: {run.name}</h2>
      {error && <p className="error-message" role="alert">{error}</p>}
      {list && list.length === 0 && <p className="muted">No checkpoint yet (one is written at the end of every epoch).</p>}
      {list && list.length > 0 && (
        <table className="runs-table">
          <thead>
            <tr><th scope="col">Checkpoint</th><th scope="col">Epoch</th><th scope="col">Step</th><th scope="col">Best val relL2</th><th scope="col">Weights</th><th scope="col">Saved</th><th scope="col">Download</th></tr>
          </thead>
          <tbody>
            {list.map((c) => (
              <tr key={c.checkpoint} data-testid={`checkpoint-${c.checkpoint}`}>
                <th scope="row">{c.checkpoint}</th>
                <td className="num">{c.epoch}</td>
                <td className="num">{c.step}</td>
                <td className="num">{c.bestValRelL2 == null ? '—' : c.bestValRelL2.toPrecision(4)}</td>
                <td className="num" data-testid="checkpoint-size">{formatBytes(c.bytes)}</td>
                <td className="small">{c.savedAt.replace('T', ' ').slice(0, 19)}</td>
                <td><button onClick={() => void download(c)} aria-label={`Download the ${c.checkpoint} checkpoint of ${run.name}`} data-testid={`checkpoint-download-${c.checkpoint}`}>weights.safetensors</button></td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {status && <span role="status" className={status.ok ? 'muted small' : 'error-message small'} data-testid="checkpoint-status">{status.text}</span>}
      {status?.name && <SaveCopyButton name={status.name} />}
    </div>
  );
}
