// The one plot component: a thin wrapper around Plotly.react (plotly.js-dist-min; react-plotly.js
// would pull the full plotly.js). It redraws in place when data, layout or theme change, resizes
// with its box, purges on unmount, and offers the figure to the export bar. Optional event hooks
// (zoom/pan and hover) let views link several plots.
import { useEffect, useRef, useState } from 'react';
import Plotly from 'plotly.js-dist-min';
import { useApp } from '../stores/app-store';
import { themedLayout, themedTraces } from './theme';
import type { Trace } from './traces';
import { PlotExportBar } from './export-bar';
import { emptyLayout, isEmptyFigure } from './empty-plot';

/** A hovered point: data coordinates and which trace/point (heatmaps: pointNumber = [row, col]). */
export interface HoverPoint {
  x: number;
  y: number;
  curveNumber: number;
  pointNumber: number | number[];
  /** The point's customdata, when its trace has some. */
  customdata?: unknown;
}

export interface PlotProps {
  data: Trace[];
  layout?: Record<string, unknown>;
  /** What the plot shows, for screen readers and as the export file name. */
  title: string;
  height?: number;
  /**
   * Equal-aspect fields: the data's height over its width (rows / columns). The plot's height then
   * follows its width so the plot area has that shape, and the equal-aspect constraint needs no
   * padding around the data (between MIN_FIT_HEIGHT and MAX_FIT_HEIGHT; `height` before the first
   * measure).
   */
  aspect?: number;
  /** Show PNG/SVG/PDF export controls under the plot (default true). */
  exportable?: boolean;
  testId?: string;
  /** The size a composed (paper) figure is laid out for: the export bar offers it as a preset. */
  exportSize?: { width: number; height: number };
  /** Zoom, pan, autoscale: Plotly's relayout update (e.g. {'xaxis.range[0]': 3, ...} or {'xaxis.autorange': true}). */
  onRelayout?: (update: Record<string, unknown>) => void;
  /** Hover over a point (null when the pointer leaves it). */
  onHover?: (point: HoverPoint | null) => void;
  /** A click on a point (Light maps: pick a query point). */
  onClick?: (point: HoverPoint) => void;
}

// showTips off: Plotly's "double-click to zoom back out" note fails colour contrast (the views say it instead).
const CONFIG = { displaylogo: false, displayModeBar: false, responsive: false, scrollZoom: false, showTips: false };

const MIN_FIT_HEIGHT = 200;
const MAX_FIT_HEIGHT = 560;

/** The height that gives a plot `width` px wide a plot area of shape `aspect`, inside the layout's margins (Plotly's defaults where unset). */
export function fittedHeight(width: number, aspect: number, layout: Record<string, unknown> | undefined): number {
  const m = (layout?.margin ?? {}) as { l?: number; r?: number; t?: number; b?: number };
  const area = (width - (m.l ?? 80) - (m.r ?? 80)) * aspect;
  return Math.round(Math.min(MAX_FIT_HEIGHT, Math.max(MIN_FIT_HEIGHT, area + (m.t ?? 100) + (m.b ?? 80))));
}

type PlotDiv = HTMLDivElement & { on?: (event: string, fn: (e: any) => void) => void; _fullLayout?: unknown };

export function Plot({ data, layout, title, height: fixedHeight = 320, aspect, exportable = true, testId, exportSize, onRelayout, onHover, onClick }: PlotProps) {
  const ref = useRef<PlotDiv>(null);
  const theme = useApp((s) => s.theme);
  // Listeners are attached once (Plotly keeps them across react calls); they call the latest props.
  const hooks = useRef({ onRelayout, onHover, onClick });
  hooks.current = { onRelayout, onHover, onClick };
  const attached = useRef(false);
  const drawing = useRef<Promise<unknown>>(Promise.resolve());
  const [width, setWidth] = useState(0);
  const height = aspect && width > 0 ? fittedHeight(width, aspect, layout) : fixedHeight;

  useEffect(() => {
    const el = ref.current;
    if (!el) return;
    const shown = isEmptyFigure(data) ? emptyLayout(layout) : layout;
    drawing.current = Plotly.react(el, themedTraces(theme, data), { ...themedLayout(theme, shown), height, autosize: true }, CONFIG).then(() => {
      if (attached.current || typeof el.on !== 'function') return;
      attached.current = true;
      el.on('plotly_relayout', (u: Record<string, unknown>) => hooks.current.onRelayout?.(u));
      el.on('plotly_hover', (e: { points?: { x: unknown; y: unknown; curveNumber: number; pointNumber: number | number[]; customdata?: unknown }[] }) => {
        const p = e?.points?.[0];
        if (p) hooks.current.onHover?.({ x: Number(p.x), y: Number(p.y), curveNumber: p.curveNumber, pointNumber: p.pointNumber, customdata: p.customdata });
      });
      el.on('plotly_unhover', () => hooks.current.onHover?.(null));
      el.on('plotly_click', (e: { points?: { x: unknown; y: unknown; curveNumber: number; pointNumber: number | number[]; customdata?: unknown }[] }) => {
        const p = e?.points?.[0];
        if (p) hooks.current.onClick?.({ x: Number(p.x), y: Number(p.y), curveNumber: p.curveNumber, pointNumber: p.pointNumber, customdata: p.customdata });
      });
    });
  }, [data, layout, theme, height]);

  useEffect(() => {
    const el = ref.current;
    if (!el) return;
    const ro = new ResizeObserver(() => {
      if (el.clientWidth > 0) setWidth(el.clientWidth);
      // The observer also fires as a plot leaves the page; Plotly refuses to resize a detached or
      // hidden div (a rejected promise), so only displayed, drawn plots are resized.
      if (!el._fullLayout || !el.isConnected || el.offsetParent === null) return;
      Promise.resolve(Plotly.Plots.resize(el)).catch(() => {});
    });
    ro.observe(el);
    return () => {
      ro.disconnect();
      // purged once a draw under way has ended: Plotly's deferred margin redraw reads the layout purge removes
      void drawing.current.catch(() => undefined).then(() => Plotly.purge(el));
      attached.current = false;
    };
  }, []);

  return (
    <figure className="plot" data-testid={testId}>
      <div ref={ref} role="img" aria-label={title} className="plot-area" style={{ height }} />
      {exportable && <PlotExportBar title={title} {...(exportSize ? { preferredSize: exportSize } : {})} figure={() => ({ data: themedTraces('light', data), layout: { ...themedLayout('light', layout), height: undefined } })} />}
    </figure>
  );
}
