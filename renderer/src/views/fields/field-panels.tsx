// The four panels of one sample with linked zoom (a zoom, pan or autoscale in one is applied to
// all) and linked hover (the hovered node is marked in every panel and its values read out).
import { useEffect, useMemo, useState } from 'react';
import { Plot, type HoverPoint } from '../../plots/plot';
import { gridXY, hoveredNode, nodeMarkShapes, sameView, viewFromRelayout, withView, type SharedView } from './linked-view';
import { PANEL_TITLES, type Panels1D, type Panels2D, type PanelName } from './field-figures';

const PANELS: PanelName[] = ['input', 'reference', 'prediction', 'error'];

export function FieldPanels({ figures, resetKey }: { figures: Panels2D; resetKey: string }) {
  const [view, setView] = useState<SharedView>(null);
  const [node, setNode] = useState<number | null>(null);
  // A different sample, run or resolution starts unzoomed.
  useEffect(() => {
    setView(null);
    setNode(null);
  }, [resetKey]);

  const onRelayout = (u: Record<string, unknown>) => {
    setView((prev) => {
      const next = viewFromRelayout(prev, u);
      return next === undefined || sameView(prev, next) ? prev : next;
    });
  };
  // The mark stays on the last hovered node: redrawing the panels with it clears Plotly's own
  // hover label, which reports an unhover that must not erase the mark again.
  const onHover = (p: HoverPoint | null) => {
    const k = hoveredNode(p, figures.placement);
    if (k !== null) setNode(k);
  };

  const layouts = useMemo(() => {
    const shapes = nodeMarkShapes(node, figures.placement, figures.markSpan);
    return Object.fromEntries(PANELS.map((p) => [p, { ...withView(figures.panels[p].layout, view), shapes }])) as unknown as Record<PanelName, Record<string, unknown>>;
  }, [figures, view, node]);

  const v = (p: PanelName) => {
    const a = figures.values[p];
    return a && node !== null && node < a.length ? a[node]!.toPrecision(4) : '–';
  };
  const where =
    node === null ? null : figures.placement.kind === 'grid' ? `node (x ${gridXY(node, figures.placement.ny)[0]}, y ${gridXY(node, figures.placement.ny)[1]})` : `mesh node ${node} (x ${figures.placement.x[node]!.toFixed(3)}, y ${figures.placement.y[node]!.toFixed(3)})`;

  return (
    <>
      <p className="muted small" data-testid="fields-hover" aria-live="polite">
        {where ? `${where}: input ${v('input')}, reference ${v('reference')}, prediction ${v('prediction')}, |error| ${v('error')}` : 'Drag to zoom all panels together, double-click to reset; hover to read one node in every panel.'}
      </p>
      <div className="fields-grid">
        {PANELS.map((p) => (
          <Plot key={p} title={PANEL_TITLES[p]} data={figures.panels[p].data} layout={layouts[p]} height={300} {...(figures.aspect ? { aspect: figures.aspect } : {})} testId={`field-${p}`} onRelayout={onRelayout} onHover={onHover} />
        ))}
      </div>
    </>
  );
}

/** 1D: the input, and reference/prediction/|error| overlaid, with a linked x range. */
export function FieldLines({ figures, resetKey }: { figures: Panels1D; resetKey: string }) {
  const [view, setView] = useState<SharedView>(null);
  useEffect(() => setView(null), [resetKey]);
  const onRelayout = (u: Record<string, unknown>) => {
    // Only x is shared: the two plots have different value axes.
    const xOnly = Object.fromEntries(Object.entries(u).filter(([k]) => k.startsWith('xaxis')));
    setView((prev) => {
      const next = viewFromRelayout(prev, xOnly);
      return next === undefined || sameView(prev, next) ? prev : next;
    });
  };
  const input = useMemo(() => withView(figures.input.layout, view), [figures, view]);
  const lines = useMemo(() => withView(figures.lines.layout, view), [figures, view]);
  return (
    <div className="plot-grid">
      <Plot title="Input" data={figures.input.data} layout={input} height={260} testId="field-input" onRelayout={onRelayout} />
      <Plot title="Reference, prediction and error" data={figures.lines.data} layout={lines} height={260} testId="field-lines" onRelayout={onRelayout} />
    </div>
  );
}
