// The rollout as a paper figure: one composed plotly figure with rows reference / prediction /
// |error| and one column per chosen step ("t = k"), axis-free square tiles, one colour bar for the
// shared reference/prediction scale (viridis) and one for |error| (cividis). Plain data + layout,
// so the same object is drawn in the view and handed to the export bar (PNG/SVG/PDF).
import { TARGET_SYMBOLS } from '../../../main/api/dataset-name';
import { colorScale, sharedRange } from './colorscales';
import { fieldZ, type Trace } from './traces';
import { absError } from './abs-error';

export interface RolloutFrames {
  /** One stored frame ([nx, ny] row-major, plots/traces.ts fieldZ) per rollout step. */
  reference: ArrayLike<number>[];
  prediction: ArrayLike<number>[];
  /** [nx, ny] */
  grid: number[];
}


export const ROW_NAMES = ['Reference', 'Prediction', '|Error|'] as const;

// Pixel design of the figure: square tiles, small gaps, the row names in the left margin and the
// two colour bars in a strip right of the tiles. Domains are fractions of this size, so drawn (and
// exported) at rolloutPaperSize the tiles sit edge to edge; at another size the axes keep them
// square (scaleanchor) inside their cells.
const MARGIN = { l: 86, r: 10, t: 30, b: 8 };
const COL_GAP = 8;
const ROW_GAP = 14;
const BAR_STRIP = 80;

/** Tile edge in pixels: 140 up to 6 columns, smaller beyond so 10 columns still fit a laptop screen. */
export function rolloutTileSize(cols: number): number {
  return cols <= 6 ? 140 : Math.max(70, Math.floor(840 / cols));
}

/** The figure's natural size in pixels for `cols` steps (its tiles edge to edge). */
export function rolloutPaperSize(cols: number, tileSize?: number): { width: number; height: number } {
  const t = tileSize ?? rolloutTileSize(cols);
  return { width: MARGIN.l + MARGIN.r + cols * t + (cols - 1) * COL_GAP + BAR_STRIP, height: MARGIN.t + MARGIN.b + 3 * t + 2 * ROW_GAP };
}

export interface RolloutFigureOptions {
  /** Tile edge in pixels (default rolloutTileSize). */
  tile?: number;
}

export function rolloutPaperFigure(f: RolloutFrames, steps: number[], o: RolloutFigureOptions = {}): { data: Trace[]; layout: Record<string, unknown> } {
  if (f.grid.length !== 2) throw new Error(`rolloutPaperFigure: a 2D grid expected, got [${f.grid.join(', ')}]`);
  const [nx, ny] = f.grid as [number, number];
  const total = Math.min(f.reference.length, f.prediction.length);
  const bad = steps.find((k) => !Number.isInteger(k) || k < 1 || k > total);
  if (bad !== undefined) throw new Error(`rolloutPaperFigure: step ${bad} is outside 1..${total}`);
  if (steps.length === 0) throw new Error('rolloutPaperFigure: no steps chosen');
  const refs = steps.map((k) => f.reference[k - 1]!);
  const preds = steps.map((k) => f.prediction[k - 1]!);
  const errs = steps.map((_, c) => absError(refs[c]!, preds[c]!));
  const [fieldMin, fieldMax] = sharedRange(...refs, ...preds);
  const [, errMax] = sharedRange(...errs);

  const cols = steps.length;
  const tile = o.tile ?? rolloutTileSize(cols);
  const { width, height } = rolloutPaperSize(cols, tile);
  const plotW = width - MARGIN.l - MARGIN.r;
  const plotH = height - MARGIN.t - MARGIN.b;
  const xDomain = (c: number): [number, number] => [(c * (tile + COL_GAP)) / plotW, (c * (tile + COL_GAP) + tile) / plotW];
  const yDomain = (r: number): [number, number] => [1 - (r * (tile + ROW_GAP) + tile) / plotH, 1 - (r * (tile + ROW_GAP)) / plotH];
  const barX = xDomain(cols - 1)[1] + 12 / plotW;
  const h = tile / plotH;
  const gap = ROW_GAP / plotH;

  const data: Trace[] = [];
  const layout: Record<string, unknown> = {
    showlegend: false,
    margin: MARGIN,
    coloraxis: { colorscale: colorScale('viridis'), cmin: fieldMin, cmax: fieldMax, colorbar: { title: { text: TARGET_SYMBOLS['navier-stokes'], side: 'right' }, x: barX, xanchor: 'left', y: (yDomain(0)[1] + yDomain(1)[0]) / 2, yanchor: 'middle', len: 2 * h + gap, thickness: 14 } },
    coloraxis2: { colorscale: colorScale('cividis'), cmin: 0, cmax: errMax > 0 ? errMax : 1, colorbar: { title: { text: '|error|', side: 'right' }, x: barX, xanchor: 'left', y: (yDomain(2)[0] + yDomain(2)[1]) / 2, yanchor: 'middle', len: h, thickness: 14 } },
    annotations: [] as Record<string, unknown>[],
  };
  const annotations = layout.annotations as Record<string, unknown>[];
  const rows = [refs, preds, errs];
  rows.forEach((frames, r) => {
    frames.forEach((values, c) => {
      const i = r * cols + c + 1;
      const ax = i === 1 ? '' : String(i);
      data.push({
        type: 'heatmap',
        z: fieldZ(values, nx, ny),
        coloraxis: r === 2 ? 'coloraxis2' : 'coloraxis',
        xaxis: `x${ax}`,
        yaxis: `y${ax}`,
        name: `${ROW_NAMES[r]} t = ${steps[c]}`,
        hovertemplate: `${ROW_NAMES[r]}, t = ${steps[c]}<br>x %{x}, y %{y}: %{z:.4g}<extra></extra>`,
      });
      // Axis-free tiles; square cells (x scaled to y) shrinking inside their domain.
      const hidden = { visible: false, showgrid: false, zeroline: false, showticklabels: false, ticks: '', fixedrange: true };
      layout[`xaxis${ax}`] = { ...hidden, domain: xDomain(c), anchor: `y${ax}`, scaleanchor: `y${ax}`, constrain: 'domain' };
      layout[`yaxis${ax}`] = { ...hidden, domain: yDomain(r), anchor: `x${ax}`, constrain: 'domain' };
    });
    annotations.push({ text: ROW_NAMES[r], xref: 'paper', yref: 'paper', x: 0, xanchor: 'right', xshift: -8, y: (yDomain(r)[0] + yDomain(r)[1]) / 2, yanchor: 'middle', showarrow: false, font: { size: 13 } });
  });
  steps.forEach((k, c) => {
    annotations.push({ text: `t = ${k}`, xref: 'paper', yref: 'paper', x: (xDomain(c)[0] + xDomain(c)[1]) / 2, xanchor: 'center', y: yDomain(0)[1], yanchor: 'bottom', yshift: 4, showarrow: false, font: { size: 13 } });
  });
  return { data, layout };
}

/**
 * The layout with `step`'s column outlined and its title coloured (the player's filmstrip, never
 * the paper figure). Only the layout changes, so Plotly redraws no heatmap while playing.
 */
export function highlightColumn(layout: Record<string, unknown>, steps: number[], step: number): Record<string, unknown> {
  const c = steps.indexOf(step);
  if (c < 0) return layout;
  const rows = ROW_NAMES.length;
  const ax = (i: number) => (i === 1 ? '' : String(i));
  const x = (layout[`xaxis${ax(c + 1)}`] as { domain: [number, number] }).domain;
  const top = (layout[`yaxis${ax(c + 1)}`] as { domain: [number, number] }).domain[1];
  const bottom = (layout[`yaxis${ax((rows - 1) * steps.length + c + 1)}`] as { domain: [number, number] }).domain[0];
  const pad = 0.008;
  const annotations = (layout.annotations as Record<string, unknown>[]).map((a, i) => (i === rows + c ? { ...a, font: { ...(a.font as object), color: '#d55e00' } } : a));
  return {
    ...layout,
    annotations,
    shapes: [{ type: 'rect', xref: 'paper', yref: 'paper', x0: x[0] - pad, x1: x[1] + pad, y0: bottom - pad, y1: top + pad, line: { color: '#d55e00', width: 3 }, fillcolor: 'rgba(0,0,0,0)' }],
  };
}
