// The ablation's bar chart (plots/ablation-bars.ts): each variant's mean best validation relL2
// with ±1 std over seeds in its component's colour; the paper's values in a panel of their own.
import { useMemo } from 'react';
import { Plot } from '../../plots/plot';
import { ablationBars } from '../../plots/ablation-bars';
import { ablationBarRows, type PaperReference } from '../../logic/ablation-view-data';
import type { AblationRow } from './use-ablation-plan';

export function AblationBars({ runName, measuredTitle, rows, paper, scale, onScale }: { runName: string; measuredTitle: string; rows: AblationRow[]; paper: PaperReference; scale: 'linear' | 'log'; onScale(s: 'linear' | 'log'): void }) {
  const fig = useMemo(() => {
    const barRows = ablationBarRows(rows, paper);
    if (barRows.length === 0) return null;
    return ablationBars({ rows: barRows, measuredTitle, paperSetting: paper?.setting ?? null, scale });
  }, [rows, paper, scale, measuredTitle]);
  if (!fig) return <p className="muted">The bar chart appears once a variant has a finished seed.</p>;
  return (
    <>
      <label className="inline">
        <input type="checkbox" checked={scale === 'log'} onChange={(e) => onScale(e.target.checked ? 'log' : 'linear')} data-testid="ablation-log-axis" /> Log axis
      </label>
      <Plot title={`Ablation of ${runName}: best validation relL2 per variant`} data={fig.data} layout={fig.layout} height={320} testId="ablation-bars" />
    </>
  );
}
