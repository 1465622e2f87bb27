// The Diagnostics view: where a run's error lives (docs/diagnostics.md). One evaluation with
// diagnostics gives the error spectrum against the truth's with PDEBench's bands, fRMSE and the
// relative error per band, the physics check beside the truth's own value (Darcy: residual maps),
// a rollout's per-step bands, and for LiNO each block's branch spectra. Figures and tables export.
import { useEffect, useMemo } from 'react';
import { useTraining } from '../../stores/training-store';
import { RunPicker } from '../../components/run-picker';
import { JobProgress } from '../../components/job-progress';
import { useEvaluation } from '../../stores/evaluations';
import { usePersisted, oneOf } from '../../stores/persisted-state';
import { Plot } from '../../plots/plot';
import { ResidualMaps } from '../../components/error-diagnostics';
import { bandShapes, branchTraces, spectrumTraces, stepBandTraces } from '../../plots/spectrum-traces';
import { TableExportBar } from '../../export/table-export-bar';
import { branchSpectraTables, diagnosticsTables } from '../../../../main/api/diagnostics-tables';
import type { EvaluationResult } from '../../../../main/api/contract';
import { CostSection } from './cost-section';
import { CompareSpectra } from './compare-spectra';

type Split = 'val' | 'test';
const keyOf = (runId: string, split: Split) => `diagnostics|${runId}|${split}`;
const fmt = (v: number | null | undefined) => (v === null || v === undefined ? 'n/a' : v.toExponential(3));

export function DiagnosticsView() {
  const run = useTraining((s) => s.runs.find((r) => r.id === s.selectedRun));
  const runs = useTraining((s) => s.runs);
  const refreshRuns = useTraining((s) => s.refreshRuns);
  const [split, setSplit] = usePersisted<Split>('diagnostics.split', 'val', oneOf('val', 'test'));
  const evals = useEvaluation();
  const key = run ? keyOf(run.id, split) : null;
  const params = run ? { id: run.id, checkpoint: 'best' as const, split, diagnostics: true } : null;
  const st = evals.state(key);
  useEffect(() => { void refreshRuns(); }, [refreshRuns]);
  useEffect(() => {
    if (key && params && !evals.asked(key)) void evals.recall(key, params as never);
  }, [key]); // params follow key (run and split): recalled once per key
  return (
    <section aria-labelledby="diagnostics-title">
      <h1 id="diagnostics-title">Diagnostics</h1>
      <p className="muted">Where the error lives: its spectrum against the truth's, PDEBench's fRMSE bands, the PDE's own residual (the truth's value beside it), and which LiNO branch carries which frequencies.</p>
      <RunPicker />
      {run && (
        <div className="row wrap">
          <label htmlFor="diagnostics-split">Split</label>
          <select id="diagnostics-split" value={split} onChange={(e) => setSplit(e.target.value as Split)}>
            <option value="val">validation</option>
            <option value="test">test</option>
          </select>
          <button data-testid="diagnostics-evaluate" disabled={st.busy || run.bestEpoch == null} onClick={() => key && params && void evals.start(key, params as never)}>
            Evaluate with diagnostics
          </button>
          {run.bestEpoch == null && <span className="muted">This run has no checkpoint yet (no finished epoch).</span>}
          <JobProgress job={st.job} label="Evaluation" />
          {st.error && <span className="error-message" role="alert">Evaluation failed: {st.error}</span>}
        </div>
      )}
      {st.result && <DiagnosticsResult result={st.result} />}
      <CompareSpectra runs={runs} split={split} keyOf={keyOf} />
      {run && <CostSection run={run} />}
    </section>
  );
}

function DiagnosticsResult({ result }: { result: EvaluationResult }) {
  const res = result.resolutions[0]!;
  const d = res.diagnostics;
  const tables = useMemo(() => (d ? diagnosticsTables([{ grid: res.grid, diagnostics: d }]) : []), [d, res.grid]);
  const branchTables = useMemo(() => (result.branchSpectra ? branchSpectraTables(result.branchSpectra) : []), [result.branchSpectra]);
  if (!d) return <p className="muted">This evaluation was made without diagnostics: evaluate again.</p>;
  const s = d.spectrum, p = d.physics;
  const bands = tables.find((t) => t.name === 'bands');
  return (
    <div data-testid="diagnostics-result">
      {s ? (
        <>
          <h2>Error spectrum ({res.grid.join('×')}, {res.n} samples)</h2>
          <Plot title="Error spectrum" testId="diagnostics-spectrum" data={spectrumTraces(s)}
            layout={{ xaxis: { title: 'wavenumber shell k = floor(|κ|)' }, yaxis: { title: 'E(k)', type: 'log' }, shapes: bandShapes(s) }} height={320} />
          <table className="table" aria-label="fRMSE and relative error per band">
            <thead><tr><th>band (shells)</th><th>fRMSE (PDEBench)</th><th>relative error</th></tr></thead>
            <tbody data-testid="diagnostics-bands">
              {(['low', 'mid', 'high'] as const).map((b) => (
                <tr key={b}>
                  <td>{b} ({b === 'low' ? `0–${s.bands.iLow - 1}` : b === 'mid' ? `${s.bands.iLow}–${s.bands.iHigh - 1}` : `≥ ${s.bands.iHigh}`})</td>
                  <td>{fmt(s.mean.fRmse[b])}</td>
                  <td>{fmt(s.mean.bandRelative[b])}</td>
                </tr>
              ))}
            </tbody>
          </table>
          {bands && <TableExportBar title="Error spectrum bands" columns={bands.columns} rows={bands.rows} latex={{ label: 'tab:spectrum-bands' }} />}
          {s.channels > 1 && (
            <Plot title="fRMSE bands per rollout step" testId="diagnostics-steps" data={stepBandTraces(s)}
              layout={{ xaxis: { title: 'rollout step' }, yaxis: { title: 'fRMSE', type: 'log' } }} height={280} />
          )}
        </>
      ) : <p className="muted">No spectrum: the data are not on a 1-D or 2-D grid.</p>}
      <h2>Physics</h2>
      {p ? (
        <>
          <p data-testid="diagnostics-physics">{p.quantity}: prediction <strong>{fmt(p.mean.prediction)}</strong>, truth {fmt(p.mean.truth)}</p>
          {p.equation && <p data-testid="diagnostics-equation">{p.equation.quantity}: prediction <strong>{fmt(p.equation.mean.prediction)}</strong>, truth {fmt(p.equation.mean.truth)}</p>}
          {p.map && <ResidualMaps maps={p.map} what="Darcy residual (first sample)" testId="diagnostics-residual" />}
        </>
      ) : <p className="muted">No physics check for this benchmark (Darcy, Burgers and Navier–Stokes have one).</p>}
      {result.branchSpectra && (
        <>
          <h2>Branch spectra (first {result.branchSpectra.samples} samples)</h2>
          <Plot title="LiNO branch spectra" testId="diagnostics-branches" data={branchTraces(result.branchSpectra)}
            layout={{ xaxis: { title: 'wavenumber shell k' }, yaxis: { title: 'E(k), summed over latent channels', type: 'log' } }} height={320} />
          {branchTables[1] && <TableExportBar title="LiNO branch band shares" columns={branchTables[1].columns} rows={branchTables[1].rows} latex={{ label: 'tab:branch-bands' }} />}
        </>
      )}
    </div>
  );
}
