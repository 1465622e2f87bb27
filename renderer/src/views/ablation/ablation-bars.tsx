// The ablation's bar chart: each variant's mean best validation relL2 with ±1 std over seeds,
// coloured by the component it switches off, with the paper's values as markers.
import { useMemo } from 'react';
import { useApp } from '../../store/app-store';
import { Plot } from '../../plots/plot';
import { PLOT_COLORS } from '../../plots/theme';
import { componentColor } from '../../plots/component-colors';
import type { Trace } from '../../plots/traces';
import type { AblationRow } from './use-ablation-plan';
import type { PaperReference } from './ablation-table';

export function AblationBars({ rows, paper, scale, onScale }: { rows: AblationRow[]; paper: PaperReference; scale: 'linear' | 'log'; onScale(s: 'linear' | 'log'): void }) {
  const theme = useApp((s) => s.theme);
  const bars = useMemo((): Trace[] => {
    const withData = rows.filter((r) => r.agg.valRelL2);
    if (withData.length === 0) return [];
    const fg = PLOT_COLORS[theme].fg;
    const out: Trace[] = [{
      type: 'bar',
      name: 'mean over seeds (±1 std)',
      x: withData.map((r) => r.variant.label),
      y: withData.map((r) => r.agg.valRelL2!.mean),
      error_y: { type: 'data', array: withData.map((r) => r.agg.valRelL2!.std), visible: true, thickness: 1.5, width: 6 },
      // The component a variant switches off gives its bar's colour (the full model's is neutral).
      marker: { color: withData.map((r) => componentColor(r.variant.off)) },
      hovertemplate: '%{x}: %{y:.4g} ± %{error_y.array:.2g}<extra></extra>',
    }];
    if (paper) out.push({ type: 'scatter', mode: 'markers', name: `paper (${paper.setting})`, x: withData.map((r) => r.variant.label), y: withData.map((r) => paper.values[r.variant.key]), marker: { symbol: 'diamond-open', size: 10, color: fg } });
    return out;
  }, [rows, paper, theme]);
  const layout = useMemo(() => ({ xaxis: { title: 'Variant' }, yaxis: { title: 'Best val relL2 (normalized)', type: scale, ...(scale === 'linear' ? { rangemode: 'tozero' } : {}) }, legend: { orientation: 'h', y: 1.02, yanchor: 'bottom', x: 0 }, margin: { l: 70, r: 20, t: 40, b: 60 } }), [scale]);
  if (bars.length === 0) return <p className="muted">The bar chart appears once a variant has a finished seed.</p>;
  return (
    <>
      <label className="inline">
        <input type="checkbox" checked={scale === 'log'} onChange={(e) => onScale(e.target.checked ? 'log' : 'linear')} data-testid="ablation-log-axis" /> Log axis
      </label>
      <Plot title="Ablation: best validation relL2 per variant" data={bars} layout={layout} height={300} testId="ablation-bars" />
    </>
  );
}
