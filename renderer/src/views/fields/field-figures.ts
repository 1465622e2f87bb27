// The traces and layouts of one sample's panels (input, reference, prediction, |error|): index
// heatmaps on regular grids, filled contours on the mesh for mesh datasets (airfoil), and lines
// for 1D. Pure: the panels component adds the shared view and the hover mark.
import type { EvaluationResult } from '../../../../main/api/contract';
import { fieldAxes, heatmapTrace, lineTrace, type Trace } from '../../plots/traces';
import { sharedRange } from '../../plots/colorscales';
import { absError } from '../../plots/abs-error';
import { meshFieldTraces, meshFocus, meshLayout, meshLinesTraces, type Mesh } from '../../plots/mesh-field';
import type { NodePlacement } from './linked-view';

export type FieldSample = NonNullable<EvaluationResult['resolutions'][number]['fields']>[number];
export interface Figure {
  data: Trace[];
  layout: Record<string, unknown>;
}
export type PanelName = 'input' | 'reference' | 'prediction' | 'error';

export const PANEL_TITLES: Record<PanelName, string> = {
  input: 'Input field',
  reference: 'Reference field',
  prediction: 'Predicted field',
  error: 'Absolute error field',
};


/** The mesh of a mesh-dataset sample: its first two input channels are the node coordinates. */
export function sampleMesh(sample: Pick<FieldSample, 'input'>, grid: number[]): Mesh | null {
  if (grid.length !== 2 || sample.input.length < 2) return null;
  return { x: sample.input[0]!, y: sample.input[1]!, rows: grid[0]!, cols: grid[1]! };
}

export interface Panels2D {
  oneD: false;
  panels: Record<PanelName, Figure>;
  placement: NodePlacement;
  /** Values per panel, for the hover read-out. */
  values: Record<PanelName, ArrayLike<number> | null>;
  /** Size of the hover cross, in data units. */
  markSpan: number;
  /** A regular grid's rows over columns (the panels' shape); none on a mesh. */
  aspect?: number;
}
export interface Panels1D {
  oneD: true;
  input: Figure;
  lines: Figure;
}

// Colour bars sit in a fixed right margin (autoexpand off): then every panel has the same plot
// area, so one shared zoom draws as the same ranges under the equal-aspect constraint.
export const PANEL_MARGIN = { l: 50, r: 95, t: 30, b: 45, autoexpand: false };
// Equal aspect by widening ranges (constrain 'range'): the drawn ranges then depend only on the
// shared view and the plot area, never on a panel's earlier state.
// ('domain', shrinking the panel instead, made each panel's drawn range depend on its own state and
// broke the linked zoom.) The panels' height follows their width (Plot's aspect), so the widened
// range is the data's own and the grid is drawn without padding.
const GRID_AXES = { ...fieldAxes('range'), margin: PANEL_MARGIN };

/** Panels for one sample on `grid`; `mesh` true draws on the mesh the input channels describe. */
export function samplePanels(sample: FieldSample, grid: number[], mesh: boolean, target = 'u'): Panels1D | Panels2D {
  const ref = sample.reference[0]!;
  const pred = sample.prediction[0]!;
  const inp = sample.input[0] ?? [];
  const err = absError(ref, pred);
  if (grid.length === 1) {
    const x = Array.from({ length: grid[0]! }, (_, i) => i);
    return {
      oneD: true,
      input: { data: [lineTrace({ x, y: inp, name: 'input' })], layout: { xaxis: { title: 'x index' }, yaxis: { title: 'input' } } },
      lines: {
        data: [lineTrace({ x, y: ref, name: 'reference' }), lineTrace({ x, y: pred, name: 'prediction', dash: 'dash' }), { ...lineTrace({ x, y: err, name: '|error|' }), yaxis: 'y2' }],
        // Legend above the plot: at the right it would cover the |error| axis.
        layout: { xaxis: { title: 'x index' }, yaxis: { title: target }, yaxis2: { title: '|error|', overlaying: 'y', side: 'right' }, legend: { orientation: 'h', x: 0, y: 1.02, yanchor: 'bottom' }, margin: { l: 60, r: 60, t: 40, b: 50 } },
      },
    };
  }
  const range = sharedRange(ref, pred);
  const m = mesh ? sampleMesh(sample, grid) : null;
  if (m) {
    const layout = (title: string) => ({ ...meshLayout(m, title), margin: PANEL_MARGIN });
    const f = meshFocus(m);
    const span = (f.x[1] - f.x[0]) * 0.04;
    return {
      oneD: false,
      panels: {
        input: { data: meshLinesTraces(m, { id: 'in', step: 2 }), layout: layout('Input: the mesh') },
        reference: { data: meshFieldTraces({ mesh: m, values: ref, range, colorbarTitle: target, id: 'ref' }), layout: layout('Reference') },
        prediction: { data: meshFieldTraces({ mesh: m, values: pred, range, colorbarTitle: target, id: 'pred' }), layout: layout('Prediction') },
        error: { data: meshFieldTraces({ mesh: m, values: err, scale: 'cividis', colorbarTitle: '|error|', id: 'err' }), layout: layout('|Prediction − reference|') },
      },
      placement: { kind: 'mesh', x: m.x, y: m.y },
      values: { input: null, reference: ref, prediction: pred, error: err },
      markSpan: span,
    };
  }
  const [nx, ny] = grid as [number, number];
  return {
    oneD: false,
    panels: {
      input: { data: [heatmapTrace({ values: inp, nx, ny, colorbarTitle: 'input' })], layout: { ...GRID_AXES, title: 'Input' } },
      reference: { data: [heatmapTrace({ values: ref, nx, ny, range, colorbarTitle: target })], layout: { ...GRID_AXES, title: 'Reference' } },
      prediction: { data: [heatmapTrace({ values: pred, nx, ny, range, colorbarTitle: target })], layout: { ...GRID_AXES, title: 'Prediction' } },
      error: { data: [heatmapTrace({ values: err, nx, ny, scale: 'cividis', colorbarTitle: '|error|' })], layout: { ...GRID_AXES, title: '|Prediction − reference|' } },
    },
    placement: { kind: 'grid', ny },
    aspect: ny / nx,
    values: { input: inp, reference: ref, prediction: pred, error: err },
    markSpan: Math.max(1, Math.min(nx, ny) / 20),
  };
}

/** Breaks a caption into lines of about `width` characters at spaces (Plotly titles do not wrap). */
export function wrapCaption(text: string, width = 60): string[] {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(' ')) {
    if (line && line.length + 1 + word.length > width) {
      lines.push(line);
      line = word;
    } else line = line ? `${line} ${word}` : word;
  }
  if (line) lines.push(line);
  return lines;
}

const escapeHtml = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/**
 * The panels with the data's provenance under each panel's title, so that every exported figure
 * (PNG, SVG, PDF) says on which grid and from which data it was drawn. The top margin grows with it.
 */
export function withCaption<P extends Panels1D | Panels2D>(figures: P, caption: string): P {
  const lines = wrapCaption(caption);
  const sub = lines.map((l) => escapeHtml(l)).join('<br>');
  const add = (f: Figure, fallback: string): Figure => {
    const l = f.layout as { title?: unknown; margin?: Record<string, unknown> };
    const title = typeof l.title === 'string' ? l.title : fallback;
    const margin = { ...(l.margin ?? { l: 60, r: 60, t: 40, b: 50 }) };
    margin.t = Number(margin.t ?? 30) + 13 * lines.length;
    return { ...f, layout: { ...f.layout, title: { text: `${escapeHtml(title)}<br><span style="font-size:10px">${sub}</span>`, font: { size: 13 } }, margin } };
  };
  if (figures.oneD) return { ...figures, input: add(figures.input, 'Input'), lines: add(figures.lines, 'Reference, prediction and error') };
  const panels = Object.fromEntries(Object.entries(figures.panels).map(([k, f]) => [k, add(f, PANEL_TITLES[k as PanelName])])) as Panels2D['panels'];
  return { ...figures, panels };
}
