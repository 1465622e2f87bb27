// Export controls for a table: LaTeX (booktabs) and CSV, saved into the workspace's exports/.
import { useState } from 'react';
import { useApp } from '../stores/app-store';
import { toCsv, toLatex, type LatexOptions, type TableColumn, type TableRow } from './table';
import { exportFileName, utf8Bytes } from './bytes';
import { saveExport } from './save';
import { SaveCopyButton } from './save-copy-button';
import { errorText } from '../api/error-text';

export interface TableExportBarProps {
  title: string;
  columns: TableColumn[];
  rows: TableRow[];
  latex?: LatexOptions;
}

export function TableExportBar({ title, columns, rows, latex }: TableExportBarProps) {
  const api = useApp((s) => s.api);
  const host = useApp((s) => s.host);
  const refreshWorkspace = useApp((s) => s.refreshWorkspace);
  const [status, setStatus] = useState<{ ok: boolean; text: string; name?: string } | null>(null);
  const [busy, setBusy] = useState(false);

  const run = async (kind: 'tex' | 'csv') => {
    if (!api) return;
    setBusy(true);
    setStatus(null);
    try {
      const text = kind === 'tex' ? toLatex(columns, rows, { caption: title, ...latex }) : toCsv(columns, rows);
      const name = await saveExport(api, host, exportFileName(title, kind), kind === 'tex' ? 'application/x-tex' : 'text/csv', utf8Bytes(text));
      setStatus({ ok: true, text: `Saved exports/${name}`, name });
      void refreshWorkspace();
    } catch (e) {
      setStatus({ ok: false, text: `Export to ${kind === 'tex' ? 'LaTeX' : 'CSV'} failed: ${errorText(e)}` });
    } finally {
      setBusy(false);
    }
  };

  return (
    <div className="export-bar" role="group" aria-label={`Export ${title}`}>
      <span className="muted">Export table:</span>
      <button onClick={() => run('tex')} disabled={busy} aria-label={`Export ${title} as LaTeX`}>LaTeX</button>
      <button onClick={() => run('csv')} disabled={busy} aria-label={`Export ${title} as CSV`}>CSV</button>
      {status && <span role="status" className={status.ok ? 'muted' : 'error-message'} data-testid="table-export-status">{status.text}</span>}
      {status?.name && <SaveCopyButton name={status.name} />}
    </div>
  );
}
