// Export buttons under one of the Sweeps view's SVG figures: the SVG as drawn, or a vector PDF of it.
import { useState } from 'react';
import { useApp } from '../../stores/app-store';
import { svgToPdf } from '../../export/plot-export';
import { exportFileName, utf8Bytes } from '../../export/bytes';
import { saveExport } from '../../export/save';
import { SaveCopyButton } from '../../export/save-copy-button';
import { errorText } from '../../api/error-text';

export function FigureExport({ title, svg, width, height }: { title: string; svg: string; width: number; height: number }) {
  const api = useApp((s) => s.api);
  const host = useApp((s) => s.host);
  const [status, setStatus] = useState<{ ok: boolean; text: string; name?: string } | null>(null);
  const run = async (kind: 'svg' | 'pdf') => {
    if (!api) return;
    try {
      const bytes = kind === 'svg' ? utf8Bytes(svg) : await svgToPdf(svg, width, height);
      const name = await saveExport(api, host, exportFileName(title, kind), kind === 'svg' ? 'image/svg+xml' : 'application/pdf', bytes);
      setStatus({ ok: true, text: `Saved exports/${name}`, name });
    } catch (e) {
      setStatus({ ok: false, text: `Export failed: ${errorText(e)}` });
    }
  };
  return (
    <div className="export-bar" role="group" aria-label={`Export ${title}`}>
      <span className="muted">Export figure:</span>
      <button onClick={() => run('svg')} aria-label={`Export ${title} as SVG`}>SVG</button>
      <button onClick={() => run('pdf')} aria-label={`Export ${title} as PDF`}>PDF</button>
      {status && <span role="status" className={status.ok ? 'muted' : 'error-message'} data-testid="figure-export-status">{status.text}</span>}
      {status?.name && <SaveCopyButton name={status.name} />}
    </div>
  );
}
