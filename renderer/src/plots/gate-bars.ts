// The Gates view's bar chart: gate α (mean ± std over samples) per block, one bar trace per light
// component in that component's colour whichever others the run has. Pure: data and layout only
// (the Ablation's integration test draws it for its variants' runs).
import { componentColor } from './component-colors';
import type { Trace } from './traces';

/** An epoch's gate records: per block its components and their α statistics. */
export interface GateEpoch {
  epoch: number;
  blocks: { components: string[]; alphaMean: number[]; alphaStd: number[] }[];
}

export function gateAlphaBars(last: GateEpoch): { data: Trace[]; layout: Record<string, unknown> } {
  const comps = [...new Set(last.blocks.flatMap((b) => b.components))];
  const blocks = last.blocks.map((_, i) => `block ${i + 1}`);
  const data: Trace[] = comps.map((c) => ({
    type: 'bar', name: c, x: blocks,
    y: last.blocks.map((b) => { const k = b.components.indexOf(c); return k >= 0 ? b.alphaMean[k] : null; }),
    error_y: { type: 'data', array: last.blocks.map((b) => { const k = b.components.indexOf(c); return k >= 0 ? b.alphaStd[k] : 0; }), visible: true },
    marker: { color: componentColor(c) },
  }));
  const layout = { barmode: 'group', xaxis: { title: 'Block' }, yaxis: { title: 'α (mean ± std over samples)', range: [0, 1] }, title: `Epoch ${last.epoch}`, legend: { orientation: 'h', y: 1.0, yanchor: 'bottom', x: 1, xanchor: 'right' }, margin: { l: 60, r: 20, t: 50, b: 50 } };
  return { data, layout };
}
