// The Export view's listing of the workspace's exports/ folder, newest first, with a download
// (browser mode) or Save as… (Electron) per file.
import { useState } from 'react';
import { useApp } from '../../stores/app-store';
import { downloadExportFile, saveExportAs, useExportList } from '../../queries/exports';
import { errorText } from '../../api/error-text';

function formatSize(n: number): string {
  if (n < 1024) return `${n} B`;
  if (n < 1024 ** 2) return `${(n / 1024).toFixed(1)} KiB`;
  return `${(n / 1024 ** 2).toFixed(1)} MiB`;
}

export function ExportFiles() {
  const host = useApp((s) => s.host);
  const workspace = useApp((s) => s.workspace);
  const jobs = useApp((s) => s.jobs);
  const [rowError, setRowError] = useState<{ name: string; text: string } | null>(null);
  const [refreshes, setRefreshes] = useState(0);
  // New exports show up without a manual refresh: saved figures and tables change the workspace
  // summary; dataset exports finish as jobs.
  const doneExports = Object.values(jobs).filter((j) => j.kind === 'export' && j.state === 'done').length;
  const topLevel = workspace?.exports.join('\n');
  const list = useExportList(`${refreshes}|${doneExports}|${topLevel}`);
  const files = list.value;
  const error = list.error ? `Could not list the exports: ${list.error}` : null;
  const refresh = () => setRefreshes((n) => n + 1);

  const download = async (name: string) => {
    setRowError(null);
    try {
      await downloadExportFile(name);
    } catch (e) {
      setRowError({ name, text: `Download failed: ${errorText(e)}` });
    }
  };

  // Electron: a native save dialog copies the file where the user wants it.
  const saveAs = async (name: string) => {
    setRowError(null);
    try {
      const r = await saveExportAs(name);
      if (r) setRowError({ name, text: `Saved to ${r.path}` });
    } catch (e) {
      setRowError({ name, text: `Save failed: ${errorText(e)}` });
    }
  };
  const native = !!host?.nativeDialogs;

  return (
    <div className="card" role="region" aria-labelledby="export-files-title">
      <h2 id="export-files-title">Files in exports/</h2>
      <p className="muted small">
        Folder: <code>{workspace ? `${workspace.path}/exports` : '…'}</code>{' '}
        <button className="link" onClick={refresh}>Refresh</button>
      </p>
      {error && <p className="error-message" role="alert">{error}</p>}
      {files && files.length === 0 && <p data-testid="exports-empty">No exports yet: use the export bar under any plot or table, or export a dataset from the Datasets view.</p>}
      {files && files.length > 0 && (
        <div className="table-wrap exports-scroll" tabIndex={0} role="region" aria-label="Export files">
          <table className="runs-table exports-table" data-testid="exports-table">
            <caption className="muted">Newest first</caption>
            <thead>
              <tr><th scope="col">Name</th><th scope="col">Size</th><th scope="col">Modified</th>{(host?.kind === 'browser' || native) && <th scope="col">{native ? 'Save' : 'Download'}</th>}</tr>
            </thead>
            <tbody>
              {files.map((f) => (
                <tr key={f.name} data-testid="export-row" data-name={f.name}>
                  <th scope="row"><code>{f.name}</code></th>
                  <td className="num">{formatSize(f.size)}</td>
                  <td className="small nowrap">{f.modified.replace('T', ' ').slice(0, 16)}</td>
                  {(host?.kind === 'browser' || native) && (
                    <td>
                      {native ? (
                        <button onClick={() => void saveAs(f.name)} aria-label={`Save ${f.name} as`}>Save as…</button>
                      ) : (
                        <button onClick={() => void download(f.name)} aria-label={`Download ${f.name}`}>Download</button>
                      )}
                      {rowError?.name === f.name && <span className={rowError.text.startsWith('Saved') ? 'muted small' : 'error-message small'} role="status"> {rowError.text}</span>}
                    </td>
                  )}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </div>
  );
}
