// The Ablation bar chart's traces and layout, pure: one bar trace per variant (so each legend
// swatch has its bar's colour, not the first bar's grey), and the paper's numbers, measured at
// another resolution, in a panel of their own beside the measured one (never on one axis with them).
import { componentColor } from './component-colors';
import type { Trace } from './traces';

export interface AblationBarRow {
  label: string;
  /** The component the variant switches off (its colour); null for the full model. */
  off: string | null;
  mean: number;
  std: number;
  /** The paper's number for this variant, when there is one. */
  reported?: number | null;
}

export interface AblationBarsInput {
  rows: AblationBarRow[];
  /** What the measured bars are, e.g. "measured: Darcy · s = 29". */
  measuredTitle: string;
  /** The paper's setting, e.g. "Darcy s = 85"; null: no reported panel. */
  paperSetting: string | null;
  scale: 'linear' | 'log';
  /** The measured bars' relL2 convention (the workspace's headline); the paper's are normalized. Default normalized. */
  convention?: 'normalized' | 'decoded';
}

export function ablationBars(o: AblationBarsInput): { data: Trace[]; layout: Record<string, unknown> } {
  const reported = o.paperSetting ? o.rows.filter((r) => typeof r.reported === 'number' && Number.isFinite(r.reported)) : [];
  const data: Trace[] = o.rows.map((r) => ({
    type: 'bar',
    name: r.label,
    legendgroup: r.label,
    x: [r.label],
    y: [r.mean],
    error_y: { type: 'data', array: [r.std], visible: true, thickness: 1.5, width: 6 },
    marker: { color: componentColor(r.off) },
    hovertemplate: '%{x}: %{y:.4g} ± %{error_y.array:.2g}<extra>measured</extra>',
  }));
  // The reported bars: same colours, hatched and lighter, on their own axes (x2, y2).
  for (const r of reported) {
    data.push({ type: 'bar', name: `${r.label}, paper`, legendgroup: r.label, showlegend: false, x: [r.label], y: [r.reported], xaxis: 'x2', yaxis: 'y2', marker: { color: componentColor(r.off), opacity: 0.55, pattern: { shape: '/' } }, hovertemplate: `%{x}: %{y:.4g}<extra>${o.paperSetting}</extra>` });
  }
  const split = reported.length > 0;
  const yBase = { type: o.scale, ...(o.scale === 'linear' ? { rangemode: 'tozero' } : {}) };
  const layout: Record<string, unknown> = {
    xaxis: { domain: split ? [0, 0.56] : [0, 1], title: o.measuredTitle },
    yaxis: { ...yBase, title: `Best val relL2 (${o.convention ?? 'normalized'})` },
    showlegend: true,
    legend: { orientation: 'h', y: 1.02, yanchor: 'bottom', x: 0 },
    margin: { l: 70, r: 20, t: 40, b: 70 },
  };
  if (split) {
    layout.xaxis2 = { domain: [0.66, 1], anchor: 'y2', title: `reported: paper, ${o.paperSetting}` };
    layout.yaxis2 = { ...yBase, anchor: 'x2', title: 'relL2 (normalized)' };
  }
  return { data, layout };
}
