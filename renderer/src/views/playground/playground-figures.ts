// The prediction, truth and |error| panels of the Playground: heatmaps (2D) on one colour range
// shared by prediction and truth, |error| on its own, or lines (1D). Pure: the view draws them.
import { fieldAxes, heatmapTrace, lineTrace, type Trace } from '../../plots/traces';
import { sharedRange } from '../../plots/colorscales';
import { absDiff } from '../../logic/playground-fields';

export interface PanelFigure {
  title: string; testId: string; data: Trace[]; layout: Record<string, unknown>;
  /** A grid's rows over columns: the plot's height follows its width, so the equal-aspect axes need no padding. */
  aspect?: number;
}

/**
 * A field panel's layout: its title drawn above it (Plot's own title is for screen readers and the
 * export name only), equal-aspect axes widened to the plot area, which the panel's `aspect` makes
 * the grid's own shape (a fixed height padded a 29-wide grid's x axis from -10 to 38).
 */
export function panelLayout(title: string): Record<string, unknown> {
  return { ...fieldAxes('range'), title: { text: title, font: { size: 14 } }, margin: { l: 45, r: 80, t: 30, b: 40 } };
}

/** A heatmap panel on an [nx, ny] grid, titled and shaped as the grid. */
export function gridPanel(title: string, testId: string, data: Trace[], nx: number, ny: number, extra: Record<string, unknown> = {}): PanelFigure {
  return { title, testId, data, layout: { ...panelLayout(title), ...extra }, aspect: ny / nx };
}

export function playgroundPanels(grid: number[], prediction: number[], truth: number[] | null): PanelFigure[] {
  if (grid.length === 1) {
    const x = Array.from({ length: grid[0]! }, (_, i) => i);
    const data = [lineTrace({ x, y: prediction, name: 'prediction' }), ...(truth ? [lineTrace({ x, y: truth, name: 'truth', dash: 'dash' }), { ...lineTrace({ x, y: absDiff(prediction, truth), name: '|error|' }), yaxis: 'y2' }] : [])];
    const title = 'Prediction, truth and |error|';
    return [{ title, testId: 'playground-lines', data, layout: { title: { text: title, font: { size: 14 } }, xaxis: { title: 'x index', range: [0, grid[0]! - 1] }, yaxis: { title: 'u' }, yaxis2: { title: '|error|', overlaying: 'y', side: 'right' }, legend: { orientation: 'h', x: 0, y: 1.02, yanchor: 'bottom' }, margin: { l: 60, r: 60, t: 60, b: 45 } } }];
  }
  const [nx, ny] = grid as [number, number];
  const range = truth ? sharedRange(prediction, truth) : sharedRange(prediction);
  const panels: PanelFigure[] = [gridPanel('Prediction', 'playground-prediction', [heatmapTrace({ values: prediction, nx, ny, range, name: 'prediction', colorbarTitle: 'u' })], nx, ny)];
  if (truth) {
    panels.push(gridPanel('Truth (solver)', 'playground-truth', [heatmapTrace({ values: truth, nx, ny, range, name: 'truth', colorbarTitle: 'u' })], nx, ny));
    panels.push(gridPanel('|Error|', 'playground-error', [heatmapTrace({ values: absDiff(prediction, truth), nx, ny, scale: 'cividis', name: '|error|', colorbarTitle: '|error|' })], nx, ny));
  }
  return panels;
}
