// Fields compare as ONE exportable figure (seven separately exported panels did not make a paper
// figure): the reference and each run's prediction in the top row on one colour axis, each run's
// |error| under its prediction on a second one. Panel titles are annotations (text in SVG/PDF).
// Pure: data and layout only; regular grids (a mesh sample keeps its per-panel plots).
import { colorScale } from './colorscales';
import { fieldZ, type Trace } from './traces';

export interface CompareFigureInput {
  grid: [number, number];
  reference: ArrayLike<number>;
  runs: { name: string; prediction: ArrayLike<number>; error: ArrayLike<number> }[];
  fieldRange: [number, number];
  errorRange: [number, number];
  target?: string;
}

const PANEL = 180;
const MARGIN = { l: 20, r: 90, t: 40, b: 10 };

export function compareFigure(o: CompareFigureInput): { data: Trace[]; layout: Record<string, unknown>; size: { width: number; height: number } } {
  const [nx, ny] = o.grid;
  const cols = 1 + o.runs.length;
  const gap = 0.02;
  const cw = (1 - gap * (cols - 1)) / cols;
  const rh = (1 - gap * 3) / 2;
  const data: Trace[] = [];
  const layout: Record<string, unknown> = {
    margin: MARGIN,
    coloraxis: { colorscale: colorScale('viridis'), cmin: o.fieldRange[0], cmax: o.fieldRange[1], colorbar: { title: { text: o.target ?? 'u' }, y: 0.75, len: 0.45 } },
    coloraxis2: { colorscale: colorScale('cividis'), cmin: o.errorRange[0], cmax: o.errorRange[1], colorbar: { title: { text: '|error|' }, y: 0.25, len: 0.45 } },
    showlegend: false,
  };
  const notes: Record<string, unknown>[] = [];
  let k = 0;
  const panel = (values: ArrayLike<number>, col: number, row: 0 | 1, title: string) => {
    k++;
    const sx = k === 1 ? '' : String(k);
    const x0 = col * (cw + gap);
    const y1 = row === 0 ? 1 - gap : 1 - gap * 2 - rh;
    data.push({ type: 'heatmap', z: fieldZ(values, nx, ny), coloraxis: row === 0 ? 'coloraxis' : 'coloraxis2', xaxis: `x${sx}`, yaxis: `y${sx}`, name: title, hovertemplate: `${title}<br>x %{x}, y %{y}: %{z:.4g}<extra></extra>` });
    layout[`xaxis${sx}`] = { domain: [x0, x0 + cw], anchor: `y${sx}`, showticklabels: false, ticks: '', showgrid: false, zeroline: false, constrain: 'domain' };
    layout[`yaxis${sx}`] = { domain: [y1 - rh, y1], anchor: `x${sx}`, scaleanchor: `x${sx}`, showticklabels: false, ticks: '', showgrid: false, zeroline: false, constrain: 'domain' };
    notes.push({ text: title, xref: 'paper', yref: 'paper', x: x0 + cw / 2, y: y1, yanchor: 'bottom', showarrow: false, font: { size: 12 } });
  };
  panel(o.reference, 0, 0, 'Reference');
  o.runs.forEach((r, i) => {
    panel(r.prediction, i + 1, 0, `${r.name}: prediction`);
    panel(r.error, i + 1, 1, `${r.name}: |error|`);
  });
  layout.annotations = notes;
  const size = { width: MARGIN.l + MARGIN.r + cols * PANEL, height: MARGIN.t + MARGIN.b + 2 * PANEL + 40 };
  return { data, layout, size };
}
