// The ablation's paper-figure layout (like the paper's Fig. 3): one Plotly figure, a reference row
// on top and one |error| row per variant, one column per sample. All error panels share ONE
// colour axis (cividis, from 0 to the largest error anywhere), so a darker panel really means a
// smaller error; the reference row has its own (viridis). Row and column labels are annotations,
// so they stay text in SVG and PDF exports. Pure: data and layout only.
import { colorScale } from './colorscales';
import { fieldZ, type Trace } from './traces';

export interface AblationFigureInput {
  /** [nx, ny] of every field (2D: heatmaps drawn by plots/traces.ts fieldZ), or [n] (1D: lines, error rows on one shared y range). */
  grid: number[];
  /** Column headings, one per sample. */
  samples: string[];
  /** Reference field per sample (stored [nx, ny], row-major). */
  reference: ArrayLike<number>[];
  /** One row per variant: its |error| field per sample, or null where it has none. */
  rows: { label: string; errors: (ArrayLike<number> | null)[] }[];
  /** Shown in the reference colour bar. */
  referenceTitle?: string;
}

function finiteRange(fields: ArrayLike<number>[], floorAtZero: boolean): [number, number] {
  let lo = Infinity;
  let hi = -Infinity;
  for (const f of fields) for (let i = 0; i < f.length; i++) {
    const v = f[i]!;
    if (Number.isFinite(v)) {
      lo = Math.min(lo, v);
      hi = Math.max(hi, v);
    }
  }
  if (lo === Infinity) return [0, 1];
  if (floorAtZero) lo = 0;
  return hi > lo ? [lo, hi] : [lo, lo + 1];
}


const MARGIN = { l: 190, r: 90, t: 30, b: 10 };
/** 1D rows: one colour per row kind (Okabe-Ito green and orange, readable on light and dark). */
const LINE = { reference: '#009e73', error: '#e69f00' };

/**
 * `widthFor(height)`: the figure width (px) at which the panels, which keep the grid's aspect
 * ratio, fill their cells; at any other width Plotly shrinks them and leaves gaps.
 */
export function ablationFigure(input: AblationFigureInput): { data: Trace[]; layout: Record<string, unknown>; errorRange: [number, number]; widthFor: (height: number) => number } {
  const oneD = input.grid.length === 1;
  const [nx, ny] = oneD ? [input.grid[0]!, 1] : (input.grid as [number, number]);
  const nCols = input.samples.length;
  const labels = ['Reference', ...input.rows.map((r) => `|error| ${r.label}`)];
  const nRows = labels.length;
  // Panels fill the plot area; row labels sit in the left margin, column titles in the top one,
  // colour bars in the right one (margins in px, so long labels never squeeze the panels).
  const left = 0;
  const right = 1;
  const top = 1;
  const bottom = 0;
  const gx = 0.02;
  const gy = 0.02;
  const cw = (right - left - gx * (nCols - 1)) / nCols;
  const rh = (top - bottom - gy * (nRows - 1)) / nRows;
  const rowDomain = (r: number): [number, number] => [top - (r + 1) * rh - r * gy, top - r * rh - r * gy];
  const colDomain = (c: number): [number, number] => [left + c * (cw + gx), left + c * (cw + gx) + cw];

  const errors = input.rows.flatMap((r) => r.errors.filter((e): e is ArrayLike<number> => e != null));
  const errorRange = finiteRange(errors, true);
  const refRange = finiteRange(input.reference, false);

  const data: Trace[] = [];
  const layout: Record<string, unknown> = {
    showlegend: false,
    margin: { ...MARGIN },
    annotations: [] as Record<string, unknown>[],
  };
  if (!oneD) Object.assign(layout, {
    coloraxis: {
      colorscale: colorScale('viridis'),
      cmin: refRange[0],
      cmax: refRange[1],
      colorbar: { title: { text: input.referenceTitle ?? 'u' }, x: 1.02, xanchor: 'left', y: rowDomain(0)[0], yanchor: 'bottom', len: rh, lenmode: 'fraction', thickness: 12 },
    },
    coloraxis2: {
      colorscale: colorScale('cividis'),
      cmin: errorRange[0],
      cmax: errorRange[1],
      colorbar: { title: { text: '|error|' }, x: 1.02, xanchor: 'left', y: bottom, yanchor: 'bottom', len: nRows > 1 ? rowDomain(1)[1] - bottom : rh, lenmode: 'fraction', thickness: 12 },
    },
  });
  const pad = (lo: number, hi: number): [number, number] => [lo - 0.05 * (hi - lo), hi + 0.05 * (hi - lo)];
  const annotations = layout.annotations as Record<string, unknown>[];
  for (let r = 0; r < nRows; r++) {
    const [y0, y1] = rowDomain(r);
    annotations.push({ text: labels[r], xref: 'paper', yref: 'paper', x: left, xshift: oneD ? -36 : -8, y: (y0 + y1) / 2, xanchor: 'right', yanchor: 'middle', showarrow: false, font: { size: 12 } });
    for (let c = 0; c < nCols; c++) {
      const k = r * nCols + c + 1;
      const suffix = k === 1 ? '' : String(k);
      const values = r === 0 ? input.reference[c] : input.rows[r - 1]!.errors[c];
      if (oneD) {
        const range = r === 0 ? pad(refRange[0], refRange[1]) : [0, errorRange[1] * 1.05];
        layout[`xaxis${suffix}`] = { domain: colDomain(c), anchor: `y${suffix}`, showticklabels: r === nRows - 1, range: [0, nx - 1] };
        layout[`yaxis${suffix}`] = { domain: [y0, y1], anchor: `x${suffix}`, showticklabels: c === 0, range, nticks: 4 };
      } else {
        layout[`xaxis${suffix}`] = { domain: colDomain(c), anchor: `y${suffix}`, showticklabels: false, ticks: '', showgrid: false, zeroline: false, constrain: 'domain' };
        layout[`yaxis${suffix}`] = { domain: [y0, y1], anchor: `x${suffix}`, showticklabels: false, ticks: '', showgrid: false, zeroline: false, scaleanchor: `x${suffix}`, constrain: 'domain' };
      }
      if (!values) continue;
      if (oneD) {
        data.push({ type: 'scatter', mode: 'lines', x: Array.from({ length: nx }, (_, i) => i), y: Array.from(values), name: `${labels[r]} · ${input.samples[c]}`, xaxis: `x${suffix}`, yaxis: `y${suffix}`, line: { width: 1.5, color: r === 0 ? LINE.reference : LINE.error } });
        continue;
      }
      data.push({
        type: 'heatmap',
        z: fieldZ(values, nx, ny),
        name: `${labels[r]} · ${input.samples[c]}`,
        coloraxis: r === 0 ? 'coloraxis' : 'coloraxis2',
        xaxis: `x${suffix}`,
        yaxis: `y${suffix}`,
        hovertemplate: `${labels[r]}, ${input.samples[c]}<br>x %{x}, y %{y}: %{z:.4g}<extra></extra>`,
      });
    }
  }
  for (let c = 0; c < nCols; c++) {
    const [x0, x1] = colDomain(c);
    annotations.push({ text: input.samples[c], xref: 'paper', yref: 'paper', x: (x0 + x1) / 2, y: top, yshift: 4, xanchor: 'center', yanchor: 'bottom', showarrow: false, font: { size: 12 } });
  }
  // 1D panels have no aspect ratio: any width.
  const widthFor = (height: number) => oneD ? Infinity : Math.round(((height - MARGIN.t - MARGIN.b) * rh * nx) / (cw * ny) + MARGIN.l + MARGIN.r);
  return { data, layout, errorRange, widthFor };
}
