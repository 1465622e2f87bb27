// The Ablation view's branch-spectra comparison (docs/diagnostics.md, per-branch spectra): for one
// block, each variant's share of the block's branch energy per PDEBench band as stacked bars (one
// panel per band), and every variant's branch spectra overlaid (colour: branch, as in every view;
// dash: variant).
import type { Trace } from './traces';
import { componentColor } from './component-colors';
import type { BranchVariant } from '../../../main/api/diagnostics-tables';

const BANDS = ['low', 'mid', 'high'] as const;
const DASH = ['solid', 'dash', 'dot', 'dashdot', 'longdash', 'longdashdot'];
const BRANCHES = ['reflection', 'refraction', 'scattering'] as const;

const bandTitle = (b: (typeof BANDS)[number], e: { iLow: number; iHigh: number }) =>
  b === 'low' ? `low (k < ${e.iLow})` : b === 'mid' ? `mid (${e.iLow} ≤ k < ${e.iHigh})` : `high (k ≥ ${e.iHigh})`;

/** Stacked bars: per band a panel, per variant a bar, per branch a segment (its share; a branch switched off has none). */
export function branchShareFigure(variants: BranchVariant[], block: number): { data: Trace[]; layout: Record<string, unknown> } {
  const x = variants.map((v) => v.variant);
  const edges = variants[0]?.branches.bands ?? { iLow: 4, iHigh: 12 };
  const data: Trace[] = BANDS.flatMap((band, i) => BRANCHES.map((k) => ({
    type: 'bar', name: k, legendgroup: k, showlegend: i === 0, x,
    y: variants.map((v) => v.branches.blocks[block]?.bandShare[k]?.[band] ?? null),
    marker: { color: componentColor(k) },
    xaxis: i === 0 ? 'x' : `x${i + 1}`, yaxis: 'y',
    hovertemplate: `%{x}<br>${k}, ${band} band: %{y:.3f}<extra></extra>`,
  })));
  const w = 1 / 3, gap = 0.04;
  const axes = Object.fromEntries(BANDS.map((band, i) => [i === 0 ? 'xaxis' : `xaxis${i + 1}`, {
    domain: [i * w + (i ? gap / 2 : 0), (i + 1) * w - (i < 2 ? gap / 2 : 0)], anchor: 'y', tickangle: -30, title: { text: bandTitle(band, edges) },
  }]));
  return {
    data,
    layout: { barmode: 'stack', ...axes, yaxis: { title: { text: 'share of the block\'s branch energy' }, range: [0, 1] }, legend: { orientation: 'h', y: 1.12 }, margin: { b: 110 } },
  };
}

/** One line per variant and branch: the contribution's shell spectrum E(k) in this block (zeros dropped on the log axis). */
export function branchOverlayTraces(variants: BranchVariant[], block: number): Trace[] {
  return variants.flatMap((v, i) => (v.branches.blocks[block]?.components ?? []).map((k) => {
    const e = v.branches.blocks[block]!.spectra[k] ?? [];
    return {
      type: 'scatter', mode: 'lines', name: `${v.variant} · ${k}`, x: e.map((_, q) => q), y: e.map((s) => (s > 0 ? s : null)),
      line: { color: componentColor(k), dash: DASH[i % DASH.length], width: 2 },
    };
  }));
}
