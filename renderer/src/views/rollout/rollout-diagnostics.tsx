// The spectrum's drift along a rollout: per step, the relative error in PDEBench's low / mid / high
// bands of the shown trajectory beside the validation mean (the bands part as high frequencies are
// lost or invented step after step), the error spectrum at the shown step, and per step the physics
// (mean-vorticity drift, vorticity-equation residual) beside the truth's; figures and tables export.
import type { EvaluationResult } from '../../../../main/api/contract';
import { Plot } from '../../plots/plot';
import { stepRelativeTraces } from '../../plots/spectrum-traces';
import { lineTrace } from '../../plots/traces';
import { TableExportBar } from '../../export/table-export-bar';
import { PhysicsLine, ResidualMaps, SpectrumBands, type SpectrumEntry } from '../../components/error-diagnostics';

type Resolution = EvaluationResult['resolutions'][number];
type Sample = NonNullable<Resolution['fields']>[number];

const STEP_COLUMNS = [
  { key: 'step', label: 'step', align: 'r' as const },
  ...(['low', 'mid', 'high'] as const).map((b) => ({ key: `r_${b}`, label: `relative ${b}`, align: 'r' as const })),
  ...(['low', 'mid', 'high'] as const).map((b) => ({ key: `m_${b}`, label: `relative ${b} (validation mean)`, align: 'r' as const })),
  { key: 'drift', label: 'mean-vorticity drift', align: 'r' as const }, { key: 'driftTruth', label: 'drift (truth)', align: 'r' as const },
  { key: 'eq', label: 'vorticity residual', align: 'r' as const }, { key: 'eqTruth', label: 'vorticity residual (truth)', align: 'r' as const },
];

export function RolloutDiagnostics({ sample, res, shown }: { sample: Sample; res: Resolution; shown: number }) {
  const own = sample.diagnostics, split = res.diagnostics;
  if (!own) return <p className="muted small">This evaluation was made without diagnostics: evaluate again to see the spectrum per step and the physics.</p>;
  const steps = own.spectrum?.perChannel ?? null, mean = split?.spectrum?.perChannel ?? null;
  const p = own.physics;
  const rows = (steps ?? []).map((c, t) => ({
    step: t + 1,
    r_low: c.bandRelative.low, r_mid: c.bandRelative.mid, r_high: c.bandRelative.high,
    m_low: mean?.[t]?.bandRelative.low ?? null, m_mid: mean?.[t]?.bandRelative.mid ?? null, m_high: mean?.[t]?.bandRelative.high ?? null,
    drift: p?.perStep?.[t]?.prediction ?? null, driftTruth: p?.perStep?.[t]?.truth ?? null,
    eq: p?.equation?.perStep[t]?.prediction ?? null, eqTruth: p?.equation?.perStep[t]?.truth ?? null,
  }));
  const at = shown - 1;
  const entries: SpectrumEntry[] = [
    ...(steps?.[at] ? [{ name: `trajectory ${sample.index}, step ${shown}`, summary: steps[at] }] : []),
    ...(mean?.[at] ? [{ name: `validation mean, step ${shown}`, summary: mean[at], dash: 'dash' }] : []),
  ];
  const eq = p?.equation;
  return (
    <div data-testid="rollout-diagnostics">
      <h2>The error's spectrum along the rollout</h2>
      {steps && (
        <Plot title="Relative error per band against rollout step" testId="rollout-band-steps" data={stepRelativeTraces(steps, mean)}
          layout={{ xaxis: { title: 'rollout step', dtick: 1 }, yaxis: { title: 'sqrt(E_err / E_truth) in the band', type: 'log' } }} height={300} />
      )}
      {own.spectrum && entries.length > 0 && <SpectrumBands entries={entries} bands={own.spectrum.bands} title={`Error spectrum at step ${shown}`} testId="rollout-spectrum" />}
      <h3>Physics at step {shown}</h3>
      {p?.perStep?.[at] && <PhysicsLine quantity={p.quantity} value={p.perStep[at]} testId="rollout-physics" />}
      {eq?.perStep[at] && <PhysicsLine quantity={eq.quantity} value={eq.perStep[at]} testId="rollout-equation" />}
      {eq && (
        <Plot title="Vorticity-equation residual against rollout step" testId="rollout-equation-steps"
          data={[lineTrace({ x: eq.perStep.map((_, t) => t + 1), y: eq.perStep.map((v) => v.prediction), name: 'prediction', color: '#D55E00' }),
            lineTrace({ x: eq.perStep.map((_, t) => t + 1), y: eq.perStep.map((v) => v.truth ?? Number.NaN), name: 'truth', color: '#0072B2', dash: 'dot' })]}
          layout={{ xaxis: { title: 'rollout step', dtick: 1 }, yaxis: { title: 'relative residual', type: 'log' } }} height={280} />
      )}
      {eq && <ResidualMaps maps={eq.map} what={`Vorticity-equation residual, trajectory ${sample.index}, step 1`} testId="rollout-equation-map" />}
      {!p && <p className="muted small">No physics check for these data.</p>}
      {rows.length > 0 && <TableExportBar title={`Rollout diagnostics, trajectory ${sample.index}`} columns={STEP_COLUMNS} rows={rows} latex={{ label: 'tab:rollout-diagnostics' }} />}
    </div>
  );
}
