// Peak memory of one training step over square grid sizes (the engine's sweep), against the wasm limit.
import { useMemo } from 'react';
import type { ModelEstimate } from '../../../../main/api/contract';
import type { ModelDraft } from '../../logic/model-draft';
import { Plot } from '../../plots/plot';
import type { Trace } from '../../plots/traces';

const GIB = 1024 ** 3;

export function MemorySweep({ result, draft }: { result: ModelEstimate; draft: ModelDraft }) {
  const plot = useMemo(() => {
    const xs = result.sweep.map((s) => s.side);
    const data: Trace[] = [
      { type: 'scatter', mode: 'lines+markers', name: 'Peak memory per step', x: xs, y: result.sweep.map((s) => s.peakBytes / GIB) },
      { type: 'scatter', mode: 'lines', name: 'wasm limit (4 GiB)', x: [xs[0], xs[xs.length - 1]], y: [4, 4], line: { dash: 'dash', width: 1.5 } },
      { type: 'scatter', mode: 'markers', name: 'This grid', x: [draft.gridSide], y: [result.peakBytes / GIB], marker: { size: 11, symbol: 'diamond' } },
    ];
    const layout = {
      title: `Memory of one training step (batch ${draft.batch})`,
      xaxis: { title: draft.dims === 1 ? 'Grid points' : 'Grid points per axis', type: 'log', tickvals: xs },
      yaxis: { title: 'Peak memory per training step (GiB)', type: 'log' },
      legend: { orientation: 'h', y: -0.25 },
    };
    return { data, layout };
  }, [result, draft.gridSide, draft.batch, draft.dims]);
  return (
    <div className="card">
      <Plot data={plot.data} layout={plot.layout} title="Memory per training step vs grid size" height={300} testId="memory-plot" />
    </div>
  );
}
