// The one plot component: a thin wrapper around Plotly.react (plotly.js-dist-min; react-plotly.js
// would pull the full plotly.js). It redraws in place when data, layout or theme change, resizes
// with its box, purges on unmount, and offers the figure to the export bar.
import { useEffect, useRef } from 'react';
import Plotly from 'plotly.js-dist-min';
import { useApp } from '../store/app-store';
import { themedLayout } from './theme';
import type { Trace } from './traces';
import { PlotExportBar } from './export-bar';

export interface PlotProps {
  data: Trace[];
  layout?: Record<string, unknown>;
  /** What the plot shows, for screen readers and as the export file name. */
  title: string;
  height?: number;
  /** Show PNG/SVG/PDF export controls under the plot (default true). */
  exportable?: boolean;
  testId?: string;
}

const CONFIG = { displaylogo: false, displayModeBar: false, responsive: false, scrollZoom: false };

export function Plot({ data, layout, title, height = 320, exportable = true, testId }: PlotProps) {
  const ref = useRef<HTMLDivElement>(null);
  const theme = useApp((s) => s.theme);

  useEffect(() => {
    const el = ref.current;
    if (!el) return;
    void Plotly.react(el, data, { ...themedLayout(theme, layout), height, autosize: true }, CONFIG);
  }, [data, layout, theme, height]);

  useEffect(() => {
    const el = ref.current;
    if (!el) return;
    const ro = new ResizeObserver(() => {
      // The observer also fires as a plot leaves the page; Plotly refuses to resize a detached or
      // hidden div (a rejected promise), so only displayed, drawn plots are resized.
      if (!(el as any)._fullLayout || !el.isConnected || el.offsetParent === null) return;
      Promise.resolve(Plotly.Plots.resize(el)).catch(() => {});
    });
    ro.observe(el);
    return () => {
      ro.disconnect();
      Plotly.purge(el);
    };
  }, []);

  return (
    <figure className="plot" data-testid={testId}>
      <div ref={ref} role="img" aria-label={title} className="plot-area" style={{ height }} />
      {exportable && <PlotExportBar title={title} figure={() => ({ data, layout: { ...themedLayout('light', layout), height: undefined } })} />}
    </figure>
  );
}
