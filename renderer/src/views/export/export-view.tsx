// Export: what is in the workspace's exports/ folder (download in browser mode), the runs and
// seed-group tables as LaTeX (booktabs) and CSV, and where each paper-figure layout is made.
import { useCallback, useEffect, useMemo, useState } from 'react';
import type { ExportEntry, Result } from '../../../../main/api/contract';
import { useApp } from '../../store/app-store';
import { useTraining } from '../../store/training-store';
import { TableExportBar } from '../../export/table-export-bar';
import type { TableColumn, TableRow } from '../../export/table';

type Group = Result<'runs.group'>;

const meanStd = (v: { mean: number; std: number } | null) => (v ? `${v.mean.toPrecision(4)} ± ${v.std.toPrecision(2)}` : '—');

function formatSize(n: number): string {
  if (n < 1024) return `${n} B`;
  if (n < 1024 ** 2) return `${(n / 1024).toFixed(1)} KiB`;
  return `${(n / 1024 ** 2).toFixed(1)} MiB`;
}

function base64ToBytes(b64: string): Uint8Array {
  const bin = atob(b64);
  const out = new Uint8Array(bin.length);
  for (let i = 0; i < bin.length; i++) out[i] = bin.charCodeAt(i);
  return out;
}

function ExportFiles() {
  const api = useApp((s) => s.api);
  const host = useApp((s) => s.host);
  const workspace = useApp((s) => s.workspace);
  const jobs = useApp((s) => s.jobs);
  const [files, setFiles] = useState<ExportEntry[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [rowError, setRowError] = useState<{ name: string; text: string } | null>(null);

  const refresh = useCallback(async () => {
    if (!api) return;
    try {
      setFiles(await api.call('exports.list', {}));
      setError(null);
    } catch (e) {
      setError(`Could not list the exports: ${e instanceof Error ? e.message : String(e)}`);
    }
  }, [api]);

  // New exports show up without a manual refresh: saved figures and tables change the workspace
  // summary; dataset exports finish as jobs.
  const doneExports = Object.values(jobs).filter((j) => j.kind === 'export' && j.state === 'done').length;
  const topLevel = workspace?.exports.join('\n');
  useEffect(() => {
    void refresh();
  }, [refresh, doneExports, topLevel]);

  const download = async (name: string) => {
    if (!api) return;
    setRowError(null);
    try {
      const r = await api.call('exports.read', { name });
      const url = URL.createObjectURL(new Blob([base64ToBytes(r.data) as BlobPart], { type: r.mime }));
      const a = document.createElement('a');
      a.href = url;
      a.download = name.split('/').pop() ?? name;
      a.style.display = 'none';
      document.body.appendChild(a);
      a.click();
      a.remove();
      setTimeout(() => URL.revokeObjectURL(url), 10_000);
    } catch (e) {
      setRowError({ name, text: `Download failed: ${e instanceof Error ? e.message : String(e)}` });
    }
  };

  // Electron: a native save dialog copies the file where the user wants it.
  const saveAs = async (name: string) => {
    if (!api) return;
    setRowError(null);
    try {
      const r = await api.call('exports.saveAs', { name });
      if (r) setRowError({ name, text: `Saved to ${r.path}` });
    } catch (e) {
      setRowError({ name, text: `Save failed: ${e instanceof Error ? e.message : String(e)}` });
    }
  };
  const native = !!host?.nativeDialogs;

  return (
    <div className="card" role="region" aria-labelledby="export-files-title">
      <h2 id="export-files-title">Files in exports/</h2>
      <p className="muted small">
        Folder: <code>{workspace ? `${workspace.path}/exports` : '…'}</code>{' '}
        <button className="link" onClick={() => void refresh()}>Refresh</button>
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

function RunTables() {
  const api = useApp((s) => s.api);
  const runs = useTraining((s) => s.runs);
  const refreshRuns = useTraining((s) => s.refreshRuns);
  const [groups, setGroups] = useState<Group[]>([]);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    void refreshRuns();
  }, [refreshRuns]);

  const groupNames = useMemo(() => [...new Set(runs.map((r) => r.group).filter((g): g is string => !!g))].sort(), [runs]);
  const key = groupNames.join('\n') + runs.map((r) => `${r.id}:${r.state}:${r.bestValRelL2}`).join(',');
  useEffect(() => {
    if (!api) return;
    let live = true;
    Promise.all(groupNames.map((g) => api.call('runs.group', { group: g }))).then(
      (gs) => live && (setGroups(gs), setError(null)),
      (e: Error) => live && setError(`Could not summarize the groups: ${e.message}`),
    );
    return () => {
      live = false;
    };
  }, [api, key]);

  const runColumns: TableColumn[] = [
    { key: 'name', label: 'Run' },
    { key: 'group', label: 'Group' },
    { key: 'seed', label: 'Seed', align: 'r' },
    { key: 'state', label: 'Status' },
    { key: 'epochs', label: 'Epochs', align: 'r' },
    { key: 'best', label: 'Best val relL2 (normalized)', align: 'r' },
    { key: 'bestEpoch', label: 'Best epoch', align: 'r' },
  ];
  const runRows: TableRow[] = runs.map((r) => ({ name: r.name, group: r.group ?? '', seed: r.seed, state: r.state, epochs: r.epochsDone, best: r.bestValRelL2, bestEpoch: r.bestEpoch }));
  const groupColumns: TableColumn[] = [
    { key: 'group', label: 'Group' },
    { key: 'n', label: 'Runs', align: 'r' },
    { key: 'val', label: 'Val relL2 (normalized)', align: 'r' },
    { key: 'valDecoded', label: 'Val relL2 (decoded)', align: 'r' },
    { key: 'test', label: 'Test relL2', align: 'r' },
  ];
  const groupRows: TableRow[] = groups.map((g) => ({ group: g.group, n: g.runs.length, val: g.valRelL2, valDecoded: g.valRelL2Decoded, test: g.testRelL2 }));
  // The best (lowest) mean validation error in bold, as papers mark it.
  const bestGroup = groupRows.reduce<number>((b, r, i) => {
    const v = (r.val as { mean: number } | null)?.mean;
    const bv = b >= 0 ? (groupRows[b]!.val as { mean: number } | null)?.mean : undefined;
    return v != null && (bv == null || v < bv) ? i : b;
  }, -1);

  return (
    <div className="card" role="region" aria-labelledby="export-tables-title">
      <h2 id="export-tables-title">Tables</h2>
      {error && <p className="error-message" role="alert">{error}</p>}
      <h3>Runs ({runs.length})</h3>
      {runs.length === 0 ? <p className="muted">No runs yet.</p> : <TableExportBar title="Runs table" columns={runColumns} rows={runRows} />}
      <h3>Seed groups ({groups.length})</h3>
      {groups.length === 0 ? (
        <p className="muted">No seed groups yet (start a run with several seeds from the Training view).</p>
      ) : (
        <>
          <table className="runs-table" data-testid="groups-preview">
            <caption className="muted">Best validation error per run, over each group's seeds</caption>
            <thead>
              <tr>{groupColumns.map((c) => <th scope="col" key={c.key}>{c.label}</th>)}</tr>
            </thead>
            <tbody>
              {groups.map((g, i) => (
                <tr key={g.group}>
                  <th scope="row">{i === bestGroup ? <strong>{g.group}</strong> : g.group}</th>
                  <td className="num">{g.runs.length}</td>
                  <td className="num">{meanStd(g.valRelL2)}</td>
                  <td className="num">{meanStd(g.valRelL2Decoded)}</td>
                  <td className="num">{meanStd(g.testRelL2)}</td>
                </tr>
              ))}
            </tbody>
          </table>
          <TableExportBar title="Seed groups" columns={groupColumns} rows={groupRows} latex={bestGroup >= 0 ? { bold: { val: bestGroup } } : undefined} />
        </>
      )}
      <p className="muted small">LaTeX tables use booktabs (<code>\usepackage{'{booktabs}'}</code>); groups print as mean ± std over their seeds. CSV keeps full precision, mean and std in two columns.</p>
    </div>
  );
}

/** The Export view: files, tables, and where the paper-figure layouts are. */
export function ExportView() {
  const setView = useApp((s) => s.setView);
  return (
    <section aria-labelledby="export-title">
      <h1 id="export-title">Export</h1>
      <div className="model-grid">
        <ExportFiles />
        <RunTables />
      </div>
      <div className="card" role="region" aria-labelledby="export-figures-title">
        <h2 id="export-figures-title">Figures</h2>
        <ul>
          <li>Every plot has an export bar underneath: PNG at a chosen width, height and scale, SVG, and vector PDF (text stays text).</li>
          <li>The ablation grid (error fields of the same samples for each variant, like the paper's Fig. 3) and its table: <button className="link" onClick={() => setView('ablations')}>Ablation view</button>.</li>
          <li>The rollout rows (reference and prediction over the rollout steps) and the step-wise error curve: <button className="link" onClick={() => setView('rollout')}>Rollout view</button>.</li>
          <li>The resolution sweep and field comparisons: <button className="link" onClick={() => setView('fields')}>Fields view</button>.</li>
        </ul>
      </div>
    </section>
  );
}
