// The prediction, truth and |error| panels of the Playground: heatmaps (2D) on one colour range
// shared by prediction and truth, |error| on its own, or lines (1D). Pure: the view draws them.
import { fieldAxes, heatmapTrace, lineTrace, type Trace } from '../../plots/traces';
import { sharedRange } from '../../plots/colorscales';
import { absDiff } from '../../store/playground-fields';

export interface PanelFigure { title: string; testId: string; data: Trace[]; layout: Record<string, unknown> }

const LAYOUT = { ...fieldAxes('range'), margin: { l: 45, r: 80, t: 10, b: 40 } };

export function playgroundPanels(grid: number[], prediction: number[], truth: number[] | null): PanelFigure[] {
  if (grid.length === 1) {
    const x = Array.from({ length: grid[0]! }, (_, i) => i);
    const data = [lineTrace({ x, y: prediction, name: 'prediction' }), ...(truth ? [lineTrace({ x, y: truth, name: 'truth', dash: 'dash' }), { ...lineTrace({ x, y: absDiff(prediction, truth), name: '|error|' }), yaxis: 'y2' }] : [])];
    return [{ title: 'Prediction, truth and |error|', testId: 'playground-lines', data, layout: { xaxis: { title: 'x index' }, yaxis: { title: 'u' }, yaxis2: { title: '|error|', overlaying: 'y', side: 'right' } } }];
  }
  const [nx, ny] = grid as [number, number];
  const range = truth ? sharedRange(prediction, truth) : sharedRange(prediction);
  const panels: PanelFigure[] = [{ title: 'Prediction', testId: 'playground-prediction', data: [heatmapTrace({ values: prediction, nx, ny, range, name: 'prediction' })], layout: LAYOUT }];
  if (truth) {
    panels.push({ title: 'Truth (solver)', testId: 'playground-truth', data: [heatmapTrace({ values: truth, nx, ny, range, name: 'truth' })], layout: LAYOUT });
    panels.push({ title: '|Error|', testId: 'playground-error', data: [heatmapTrace({ values: absDiff(prediction, truth), nx, ny, scale: 'cividis', name: '|error|' })], layout: LAYOUT });
  }
  return panels;
}
