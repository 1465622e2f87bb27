// Export controls under a plot: PNG at a chosen size and scale, SVG, and vector PDF.
import { useEffect, useId, useState } from 'react';
import { useApp } from '../stores/app-store';
import { exportFigure, MIME, type Figure, type ImageFormat, type ImageSize } from '../export/plot-export';
import { usePersisted } from '../stores/persisted-state';
import { exportFileName, exportFileSlug } from '../export/bytes';
import { saveExport } from '../export/save';
import { SaveCopyButton } from '../export/save-copy-button';
import { errorText } from '../api/error-text';

export interface PlotExportBarProps {
  title: string;
  /** A plotly figure, exported through Plotly.toImage… */
  figure?: () => Figure;
  /** …or a figure that draws itself (the SVG parallel coordinates): the bytes for a format and size. */
  exporter?: (format: ImageFormat, size: ImageSize) => Promise<Uint8Array>;
  preferredSize?: { width: number; height: number };
}

export function PlotExportBar({ title, figure, exporter, preferredSize }: PlotExportBarProps) {
  const api = useApp((s) => s.api);
  const host = useApp((s) => s.host);
  const refreshWorkspace = useApp((s) => s.refreshWorkspace);
  // One export size for every plain plot, kept with the workbench state (a paper's figure width).
  // A figure laid out for its own size (preferredSize: the paper figures) keeps its own choice under
  // its title, starting at that size, so sizing it never resizes every other plot.
  const [shared, setShared] = usePersisted<ImageSize>('export.size', DEFAULT_SIZE, validSize);
  const [own, setOwn] = usePersisted<ImageSize | null>(`export.size.${exportFileSlug(title)}`, null, (v) => v === null || validSize(v));
  const natural: ImageSize | null = preferredSize ? { width: clampPx(preferredSize.width), height: clampPx(preferredSize.height), scale: DEFAULT_SIZE.scale } : null;
  const size = natural ? own ?? natural : shared;
  const setSize = (f: (p: ImageSize) => ImageSize) => (natural ? setOwn((p) => f(p ?? natural)) : setShared(f));
  const { width, height, scale } = size;
  const [busy, setBusy] = useState<ImageFormat | null>(null);
  const [status, setStatus] = useState<{ ok: boolean; text: string; name?: string } | null>(null);
  const id = useId();

  const run = async (format: ImageFormat) => {
    if (!api) return;
    setBusy(format);
    setStatus(null);
    try {
      const bytes = exporter ? await exporter(format, { width, height, scale }) : await exportFigure(figure!(), format, { width, height, scale });
      const name = await saveExport(api, host, exportFileName(title, format), MIME[format], bytes);
      setStatus({ ok: true, text: `Saved exports/${name}`, name });
      void refreshWorkspace();
    } catch (e) {
      setStatus({ ok: false, text: `Export to ${format.toUpperCase()} failed: ${errorText(e)}` });
    } finally {
      setBusy(null);
    }
  };

  return (
    <figcaption className="export-bar" aria-label={`Export ${title}`}>
      <SizeInput id={`${id}-w`} label="Width" value={width} onCommit={(v) => setSize((p) => ({ ...p, width: v }))} />
      <SizeInput id={`${id}-h`} label="Height" value={height} onCommit={(v) => setSize((p) => ({ ...p, height: v }))} />
      <label htmlFor={`${id}-s`}>PNG scale</label>
      <select id={`${id}-s`} value={scale} onChange={(e) => setSize((p) => ({ ...p, scale: Number(e.target.value) }))}>
        {[1, 2, 3, 4].map((s) => <option key={s} value={s}>{s}×</option>)}
      </select>
      {preferredSize && (preferredSize.width !== width || preferredSize.height !== height) && (
        // Paper layouts tile edge to edge only at the size they were laid out for.
        <button onClick={() => setSize((p) => ({ ...p, width: clampPx(preferredSize.width), height: clampPx(preferredSize.height) }))} data-testid="export-figure-size">
          Use figure size {clampPx(preferredSize.width)} × {clampPx(preferredSize.height)}
        </button>
      )}
      {(['png', 'svg', 'pdf'] as const).map((f) => (
        <button key={f} onClick={() => run(f)} disabled={busy !== null} aria-label={`Export ${title} as ${f.toUpperCase()}`}>
          {busy === f ? `${f.toUpperCase()}…` : f.toUpperCase()}
        </button>
      ))}
      {status && <span role="status" className={status.ok ? 'muted' : 'error-message'} data-testid="export-status">{status.text}</span>}
      {status?.name && <SaveCopyButton name={status.name} />}
    </figcaption>
  );
}

const DEFAULT_SIZE: ImageSize = { width: 800, height: 500, scale: 2 };
const MIN_PX = 100;
const MAX_PX = 4000;
const clampPx = (n: number) => Math.min(MAX_PX, Math.max(MIN_PX, Math.round(n)));

/** A saved size comes back from a file: anything odd falls back to the default. */
function validSize(s: unknown): s is ImageSize {
  const v = s as ImageSize;
  const px = (n: unknown) => Number.isInteger(n) && (n as number) >= MIN_PX && (n as number) <= MAX_PX;
  return !!v && typeof v === 'object' && px(v.width) && px(v.height) && [1, 2, 3, 4].includes(v.scale);
}

/**
 * A size in pixels, edited as text: typing "1200" passes through "1" and "12", which must not be
 * clamped on the way; a value is committed when it is a whole number in range, else marked invalid.
 */
function SizeInput({ id, label, value, onCommit }: { id: string; label: string; value: number; onCommit: (v: number) => void }) {
  const [text, setText] = useState(String(value));
  useEffect(() => setText(String(value)), [value]);
  const n = Number(text);
  const valid = text.trim() !== '' && Number.isInteger(n) && n >= MIN_PX && n <= MAX_PX;
  return (
    <>
      <label htmlFor={id}>{label}</label>
      <input
        id={id}
        type="number"
        min={MIN_PX}
        max={MAX_PX}
        step={10}
        value={text}
        aria-invalid={!valid}
        title={valid ? undefined : `${label}: a whole number of pixels from ${MIN_PX} to ${MAX_PX}`}
        onChange={(e) => {
          setText(e.target.value);
          const v = Number(e.target.value);
          if (e.target.value.trim() !== '' && Number.isInteger(v) && v >= MIN_PX && v <= MAX_PX) onCommit(v);
        }}
        onBlur={() => setText(String(value))}
      />
    </>
  );
}
