// A reproduction's figures from its figure data (main/reproduce/figures.ts): Fig. 3's bars with
// ±1 std, Fig. 6's step-wise error with its band, Fig. 5's last rolled-out frame and Fig. 4's
// airfoil fields on the curvilinear mesh. Each plot exports like every other (PNG, SVG, PDF).
import { Plot } from '../../plots/plot';
import type { Trace } from '../../plots/traces';
import { meshFieldTraces, meshLayout, type Mesh } from '../../plots/mesh-field';
import { sharedRange } from '../../plots/colorscales';

const COLORS = ['#0072b2', '#d55e00', '#009e73', '#cc79a7'];
type Series = Record<string, any>;

function AblationBars({ data }: { data: Series }) {
  const bars = data.bars as { label: string; mean: number; std: number }[];
  const traces: Trace[] = [{ type: 'bar', x: bars.map((b) => b.label), y: bars.map((b) => b.mean), error_y: { type: 'data', array: bars.map((b) => b.std), visible: true }, name: 'measured', marker: { color: COLORS[0] } }];
  return <Plot title="Ablation: best validation relL2 (mean ± std over seeds)" data={traces} layout={{ yaxis: { title: 'relL2 (normalized)' } }} height={300} testId="reproduce-figure-ablation-bars" />;
}

function StepError({ data }: { data: Series }) {
  const traces: Trace[] = (data.series as Series[]).flatMap((s, i) => {
    const x = (s.mean as number[]).map((_, k) => k + 1);
    const c = COLORS[i % COLORS.length]!;
    return [
      { type: 'scatter', mode: 'lines', x: [...x, ...[...x].reverse()], y: [...s.mean.map((m: number, k: number) => m + s.std[k]), ...s.mean.map((m: number, k: number) => Math.max(0, m - s.std[k])).reverse()], fill: 'toself', fillcolor: `${c}33`, line: { width: 0 }, name: `${s.label} ±1 std`, hoverinfo: 'skip' },
      { type: 'scatter', mode: 'lines+markers', x, y: s.mean, name: `${s.label} mean`, line: { color: c, width: 2 } },
    ];
  });
  return <Plot title="Step-wise relL2 on decoded fields (validation)" data={traces} layout={{ xaxis: { title: 'rollout step' }, yaxis: { title: 'relL2 (decoded)' } }} height={300} testId="reproduce-figure-step-error" />;
}

const rows2d = (v: number[], rows: number, cols: number) => Array.from({ length: rows }, (_, r) => v.slice(r * cols, (r + 1) * cols));

function RolloutLast({ data }: { data: Series }) {
  const [h, w] = data.grid as number[];
  return (
    <>
      {(data.series as Series[]).map((s) => {
        const last = s.reference.length - 1;
        const ref = s.reference[last] as number[];
        const pred = s.prediction[last] as number[];
        const panels: [string, number[]][] = [['reference', ref], ['prediction', pred], ['error', pred.map((v, i) => v - ref[i]!)]];
        return panels.map(([name, v]) => (
          <Plot key={`${s.label}-${name}`} title={`${s.label}: ${name}, step ${last + 1} (sample ${s.sample})`} data={[{ type: 'heatmap', z: rows2d(v, h!, w!), colorscale: name === 'error' ? 'RdBu' : 'Viridis' }]} layout={{ yaxis: { scaleanchor: 'x' } }} height={260} testId="reproduce-figure-rollout" />
        ));
      })}
    </>
  );
}

function MeshFields({ data }: { data: Series }) {
  const [rows, cols] = data.grid as number[];
  return (
    <>
      {(data.series as Series[]).map((s, i) => {
        const mesh: Mesh = { x: s.x, y: s.y, rows: rows!, cols: cols! };
        const range = sharedRange(s.reference, s.prediction);
        const panels: [string, number[], [number, number] | undefined][] = [['reference Mach', s.reference, range], ['predicted Mach', s.prediction, range], ['error', s.error, undefined]];
        return panels.map(([name, v, r]) => (
          <Plot key={`${s.label}-${name}`} title={`${s.label}: ${name} (sample ${s.sample})`} data={meshFieldTraces({ mesh, values: v, range: r, id: `m${i}-${name}`, scale: name === 'error' ? 'RdBu' : 'viridis' })} layout={meshLayout(mesh)} height={300} testId="reproduce-figure-mesh" />
        ));
      })}
    </>
  );
}

export function ReproduceFigures({ figures }: { figures: { kind: string; data: Series }[] }) {
  return (
    <>
      {figures.map((f) => {
        if (f.kind === 'ablation-bars') return <AblationBars key={f.kind} data={f.data} />;
        if (f.kind === 'step-error') return <StepError key={f.kind} data={f.data} />;
        if (f.kind === 'rollout') return <RolloutLast key={f.kind} data={f.data} />;
        if (f.kind === 'mesh-field') return <MeshFields key={f.kind} data={f.data} />;
        return null;
      })}
    </>
  );
}
