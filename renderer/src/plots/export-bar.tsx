// Export controls under a plot: PNG at a chosen size and scale, SVG, and vector PDF.
import { useId, useState } from 'react';
import { useApp } from '../store/app-store';
import { exportFigure, MIME, type Figure, type ImageFormat } from '../export/plot-export';
import { exportFileName } from '../export/bytes';
import { saveExport } from '../export/save';

export function PlotExportBar({ title, figure }: { title: string; figure: () => Figure }) {
  const api = useApp((s) => s.api);
  const host = useApp((s) => s.host);
  const refreshWorkspace = useApp((s) => s.refreshWorkspace);
  const [width, setWidth] = useState(800);
  const [height, setHeight] = useState(500);
  const [scale, setScale] = useState(2);
  const [busy, setBusy] = useState<ImageFormat | null>(null);
  const [status, setStatus] = useState<{ ok: boolean; text: string } | null>(null);
  const id = useId();

  const run = async (format: ImageFormat) => {
    if (!api) return;
    setBusy(format);
    setStatus(null);
    try {
      const bytes = await exportFigure(figure(), format, { width, height, scale });
      const name = await saveExport(api, host, exportFileName(title, format), MIME[format], bytes);
      setStatus({ ok: true, text: `Saved exports/${name}` });
      void refreshWorkspace();
    } catch (e) {
      setStatus({ ok: false, text: `Export to ${format.toUpperCase()} failed: ${e instanceof Error ? e.message : String(e)}` });
    } finally {
      setBusy(null);
    }
  };

  const num = (v: string, lo: number, hi: number, fallback: number) => {
    const n = Number(v);
    return Number.isFinite(n) ? Math.min(hi, Math.max(lo, n)) : fallback;
  };

  return (
    <figcaption className="export-bar" aria-label={`Export ${title}`}>
      <label htmlFor={`${id}-w`}>Width</label>
      <input id={`${id}-w`} type="number" min={100} max={4000} step={10} value={width} onChange={(e) => setWidth(num(e.target.value, 100, 4000, 800))} />
      <label htmlFor={`${id}-h`}>Height</label>
      <input id={`${id}-h`} type="number" min={100} max={4000} step={10} value={height} onChange={(e) => setHeight(num(e.target.value, 100, 4000, 500))} />
      <label htmlFor={`${id}-s`}>PNG scale</label>
      <select id={`${id}-s`} value={scale} onChange={(e) => setScale(Number(e.target.value))}>
        {[1, 2, 3, 4].map((s) => <option key={s} value={s}>{s}×</option>)}
      </select>
      {(['png', 'svg', 'pdf'] as const).map((f) => (
        <button key={f} onClick={() => run(f)} disabled={busy !== null} aria-label={`Export ${title} as ${f.toUpperCase()}`}>
          {busy === f ? `${f.toUpperCase()}…` : f.toUpperCase()}
        </button>
      ))}
      {status && <span role="status" className={status.ok ? 'muted' : 'error-message'} data-testid="export-status">{status.text}</span>}
    </figcaption>
  );
}
