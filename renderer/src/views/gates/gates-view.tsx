import { useEffect, useMemo } from 'react';
import { useApp } from '../../stores/app-store';
import { useTraining } from '../../stores/training-store';
import { EMPTY_CURVES } from '../../logic/run-metrics';
import { Plot } from '../../plots/plot';
import { colorScale } from '../../plots/colorscales';
import { PLOT_COLORS } from '../../plots/theme';
import { gateAlphaBars } from '../../plots/gate-bars';
import type { Trace } from '../../plots/traces';
import { RunPicker } from '../../components/run-picker';
import { SCALARS, absentScalarReason } from '../../logic/block-scalars';
import { hasLightMechanisms, noMechanismsText } from '../../logic/model-kind';

/** Which light mechanism each block relies on: gate α per block and component, and the block scalars. */
export function GatesView() {
  const selected = useTraining((s) => s.selectedRun);
  const run = useTraining((s) => s.runs.find((r) => r.id === s.selectedRun));
  const epochs = useTraining((s) => (selected ? s.curves[selected] : undefined) ?? EMPTY_CURVES).epochs;
  const refreshRuns = useTraining((s) => s.refreshRuns);
  const theme = useApp((s) => s.theme);
  const colors = PLOT_COLORS[theme].lines;
  useEffect(() => {
    void refreshRuns();
  }, [refreshRuns]);

  const withBlocks = useMemo(() => epochs.filter((e) => e.blocks.length > 0), [epochs]);
  const last = withBlocks[withBlocks.length - 1];

  const heat = useMemo(() => {
    if (!last) return null;
    const rows: { label: string; b: number; c: number }[] = [];
    last.blocks.forEach((blk, b) => blk.components.forEach((name, c) => rows.push({ label: `block ${b + 1} · ${name}`, b, c })));
    const x = withBlocks.map((e) => e.epoch);
    const z = rows.map((r) => withBlocks.map((e) => e.blocks[r.b]?.alphaMean[r.c] ?? null));
    const data: Trace[] = [{
      type: 'heatmap', x, y: rows.map((r) => r.label), z, zmin: 0, zmax: 1, colorscale: colorScale('viridis'),
      colorbar: { title: { text: 'mean α' } }, hovertemplate: 'epoch %{x}, %{y}: α = %{z:.3f}<extra></extra>', xgap: 1, ygap: 1,
    }];
    const layout = { xaxis: { title: 'Epoch', dtick: x.length < 12 ? 1 : undefined }, yaxis: { title: '', autorange: 'reversed' }, margin: { l: 150, r: 20, t: 20, b: 50 } };
    return { data, layout, height: Math.max(220, 60 + rows.length * 22) };
  }, [withBlocks, last]);

  const bars = useMemo(() => (last ? gateAlphaBars(last) : null), [last]);

  const scalarPlots = useMemo(() => {
    const out: { key: string; label: string; data: Trace[]; layout: Record<string, unknown> }[] = [];
    for (const s of SCALARS) {
      const nBlocks = last?.blocks.length ?? 0;
      const data: Trace[] = [];
      for (let b = 0; b < nBlocks; b++) {
        const pts = withBlocks.filter((e) => e.blocks[b]?.scalars[s.key] != null);
        if (pts.length === 0) continue;
        data.push({ type: 'scatter', mode: 'lines+markers', name: `block ${b + 1}`, x: pts.map((e) => e.epoch), y: pts.map((e) => e.blocks[b]!.scalars[s.key]), line: { color: colors[b % colors.length] } });
      }
      if (data.length > 0) out.push({ key: s.key, label: s.label, data, layout: { xaxis: { title: 'Epoch', dtick: withBlocks.length < 12 ? 1 : undefined }, yaxis: { title: s.label }, legend: { orientation: 'h', y: 1.02, yanchor: 'bottom', x: 0 }, margin: { l: 60, r: 20, t: 40, b: 50 } } });
    }
    return out;
  }, [withBlocks, last, colors]);
  const absent = useMemo(() => SCALARS.map((s) => ({ ...s, why: last ? absentScalarReason(s.key, last.blocks) : null })).filter((s) => s.why), [last]);

  return (
    <section aria-labelledby="gates-title">
      <h1 id="gates-title">Gates</h1>
      <p className="muted">The gate α mixes each block's light mechanisms (reflection, refraction, scattering); its mean over the validation set per epoch shows which one a block relies on.</p>
      <RunPicker />
      {run && !hasLightMechanisms(run) && <p className="card" role="status" data-testid="gates-not-lino">{noMechanismsText(run, 'gates (α) or block scalars')}</p>}
      {run && hasLightMechanisms(run) && !last && <p data-testid="gates-waiting" className="muted">{run.state === 'queued' || run.state === 'running' ? 'Waiting for the first epoch of this run…' : 'This run has no epoch records yet.'}</p>}
      {heat && bars && run && hasLightMechanisms(run) && (
        <>
          <div className="plot-grid">
            <Plot title="Gate alpha per block and component over epochs" data={heat.data} layout={heat.layout} height={Math.max(300, heat.height)} testId="alpha-heatmap" />
            <Plot title="Gate alpha at the current epoch" data={bars.data} layout={bars.layout} height={Math.max(300, heat.height)} testId="alpha-bars" />
          </div>
          {scalarPlots.length > 0 && (
            <div className="plot-grid">
              {scalarPlots.map((p) => <Plot key={p.key} title={`Block scalar ${p.key} over epochs`} data={p.data} layout={p.layout} height={260} testId={`scalar-${p.key}`} />)}
            </div>
          )}
          {absent.length > 0 && (
            <ul className="muted small" data-testid="gates-absent" aria-label="Block scalars this run does not have">
              {absent.map((s) => <li key={s.key} data-testid={`gates-absent-${s.key}`}>{s.label}: {s.why}.</li>)}
            </ul>
          )}
        </>
      )}
    </section>
  );
}
