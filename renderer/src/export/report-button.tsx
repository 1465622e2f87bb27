// "Report (HTML)": the offline report of a run, a sweep or a reproduction (main/report: one self-contained file,
// inline SVG, both relL2 conventions), written by the host into exports/ and downloaded in browser
// mode or offered for a copy through Electron's save dialog. "PDF" also prints it with a headless
// Chromium of the host's machine (the CLI's --pdf); without one it says so: the HTML prints as it is.
import { useEffect, useState } from 'react';
import { writeReport } from '../queries/run-actions';
import { errorText } from '../api/error-text';
import { SaveCopyButton } from './save-copy-button';

export function ReportButton({ kind, id, label }: { kind: 'run' | 'sweep' | 'reproduction'; id: string; label: string }) {
  const [status, setStatus] = useState<{ ok: boolean; text: string; name?: string } | null>(null);
  const [busy, setBusy] = useState(false);
  useEffect(() => setStatus(null), [kind, id]);
  const run = async (pdf: boolean) => {
    setBusy(true);
    setStatus(null);
    try {
      const r = await writeReport(kind, id, pdf);
      const also = r.pdf ? ` and exports/${r.pdf}` : '';
      setStatus({ ok: true, text: `Saved exports/${r.name} (${(r.size / 1024).toFixed(0)} KiB; opens offline)${also}`, name: r.pdf ?? r.name });
    } catch (e) {
      setStatus({ ok: false, text: `Report failed: ${errorText(e)}` });
    } finally {
      setBusy(false);
    }
  };
  return (
    <span className="row wrap" data-testid={`${kind}-report`}>
      <button onClick={() => void run(false)} disabled={busy} aria-label={`Write the offline report of ${label}`} title="One self-contained HTML file: configuration, data provenance, environment, curves, both relL2 conventions, notes and tags">
        Report (HTML)
      </button>
      <button onClick={() => void run(true)} disabled={busy} aria-label={`Write the offline report of ${label} and its PDF`} title="The same report printed to PDF by a headless Chromium on this machine">
        Report (PDF)
      </button>
      {status && <span role="status" className={status.ok ? 'muted small' : 'error-message small'} data-testid={`${kind}-report-status`}>{status.text}</span>}
      {status?.name && <SaveCopyButton name={status.name} />}
    </span>
  );
}
