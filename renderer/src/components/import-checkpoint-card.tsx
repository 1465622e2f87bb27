// Import a PyTorch checkpoint (.pt: the release's best_model.pt / last_model.pt) as a run. The
// host reads it with an allowlisting unpickler (main/runs/torch-pickle.ts); a dataset of the
// workspace, when chosen, is checked against the checkpoint's channels and lets Fields, Gates and
// Rollout evaluate the run.
import { useId, useState } from 'react';
import { useApp } from '../stores/app-store';
import { useTraining } from '../stores/training-store';
import { pickOpen } from '../queries/files';
import { importCheckpoint } from '../queries/run-actions';
import { errorText } from '../api/error-text';
import { FileBrowser } from './file-browser';

export function ImportCheckpointCard() {
  const { api, host, workspace, reportError } = useApp();
  const refreshRuns = useTraining((s) => s.refreshRuns);
  const [browsing, setBrowsing] = useState(false);
  const [file, setFile] = useState<{ ref: string; name: string } | null>(null);
  const [dataset, setDataset] = useState('');
  const [busy, setBusy] = useState(false);
  const [message, setMessage] = useState<{ ok: boolean; text: string } | null>(null);
  const id = useId();

  const choose = async () => {
    if (!api) return;
    if (!host?.nativeDialogs) return setBrowsing(true);
    try {
      const picked = await pickOpen(false, 'Import a PyTorch checkpoint');
      if (picked) setFile(picked);
    } catch (e) {
      reportError('choosing a checkpoint', e);
    }
  };

  const run = async () => {
    if (!api || !file) return;
    setBusy(true);
    setMessage(null);
    try {
      const r = await importCheckpoint(file.ref, dataset || null);
      setMessage({ ok: true, text: `Imported as run ${r.runId}.${r.notes.length ? ` ${r.notes.join(' ')}` : ''}` });
      void refreshRuns();
    } catch (e) {
      setMessage({ ok: false, text: `Could not import: ${errorText(e)}` });
    } finally {
      setBusy(false);
    }
  };

  return (
    <div className="card" role="region" aria-labelledby={`${id}-t`} data-testid="import-checkpoint">
      <h2 id={`${id}-t`}>Import a PyTorch checkpoint</h2>
      <p className="muted">A torch.save .pt file (the release's best_model.pt or last_model.pt). Only plain data and tensors are read; anything else is refused.</p>
      <button onClick={choose}>Choose a .pt file…</button> {file && <span data-testid="import-checkpoint-file">{file.name}</span>}
      {browsing && (
        <FileBrowser
          title="Import a PyTorch checkpoint"
          directory={false}
          onPick={(f) => {
            setBrowsing(false);
            setFile(f);
          }}
          onCancel={() => setBrowsing(false)}
        />
      )}
      <p>
        <label htmlFor={`${id}-ds`}>Its data </label>
        <select id={`${id}-ds`} value={dataset} onChange={(e) => setDataset(e.target.value)}>
          <option value="">none (the run lists but cannot be evaluated)</option>
          {(workspace?.datasets ?? []).map((d) => <option key={d.id} value={d.id}>{d.name}</option>)}
        </select>
      </p>
      <button onClick={run} disabled={!file || busy}>{busy ? 'Importing…' : 'Import as a run'}</button>
      {message && <p className={message.ok ? 'muted' : 'error-message'} role={message.ok ? 'status' : 'alert'}>{message.text}</p>}
    </div>
  );
}
