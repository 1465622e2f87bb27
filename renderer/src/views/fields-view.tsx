import { useEffect, useId, useMemo, useState } from 'react';
import type { EvaluationResult } from '../../../main/api/contract';
import { useApp } from '../store/app-store';
import { useTraining } from '../store/training-store';
import { Plot } from '../plots/plot';
import { heatmapTrace, lineTrace } from '../plots/traces';
import { sharedRange } from '../plots/colorscales';
import { RunPicker } from '../components/run-picker';

type Which = 'best' | 'median' | 'worst';

/** Input, reference, prediction and |error| of a run's best / median / worst validation sample. */
export function FieldsView() {
  const api = useApp((s) => s.api);
  const jobs = useApp((s) => s.jobs);
  const runId = useTraining((s) => s.selectedRun);
  const run = useTraining((s) => s.runs.find((r) => r.id === s.selectedRun));
  const refreshRuns = useTraining((s) => s.refreshRuns);
  const [jobByRun, setJobByRun] = useState<Record<string, string>>({});
  const [error, setError] = useState<string | null>(null);
  const [which, setWhich] = useState<Which>('median');
  const sid = useId();
  useEffect(() => {
    void refreshRuns();
  }, [refreshRuns]);

  const job = runId && jobByRun[runId] ? jobs[jobByRun[runId]!] : undefined;
  const result = job?.state === 'done' ? (job.result as EvaluationResult) : null;
  const res = result?.resolutions[0];
  const sample = res?.fields?.find((f) => f.which === which);
  const grid = res?.grid ?? [];

  const evaluate = async () => {
    if (!api || !runId) return;
    setError(null);
    try {
      const j = await api.call('runs.evaluate', { id: runId, checkpoint: 'best', split: 'val', fields: true });
      setJobByRun((m) => ({ ...m, [runId]: j.id }));
    } catch (e) {
      setError(e instanceof Error ? e.message : String(e));
    }
  };

  const plots = useMemo(() => {
    if (!sample || grid.length === 0) return null;
    const ref = sample.reference[0]!;
    const pred = sample.prediction[0]!;
    const inp = sample.input[0]!;
    const err = ref.map((v, i) => Math.abs(pred[i]! - v));
    if (grid.length === 1) {
      const x = Array.from({ length: grid[0]! }, (_, i) => i);
      return {
        oneD: true as const,
        data: [lineTrace({ x, y: ref, name: 'reference' }), lineTrace({ x, y: pred, name: 'prediction', dash: 'dash' }), { ...lineTrace({ x, y: err, name: '|error|' }), yaxis: 'y2' }],
        input: [lineTrace({ x, y: inp, name: 'input' })],
      };
    }
    const [ny, nx] = grid as [number, number];
    const range = sharedRange(ref, pred);
    const axes = { xaxis: { title: 'x index', scaleanchor: 'y', constrain: 'domain' }, yaxis: { title: 'y index', constrain: 'domain' }, margin: { l: 50, r: 10, t: 30, b: 45 } };
    return {
      oneD: false as const,
      input: { data: [heatmapTrace({ values: inp, nx, ny, colorbarTitle: 'input' })], layout: { ...axes, title: 'Input' } },
      reference: { data: [heatmapTrace({ values: ref, nx, ny, range, colorbarTitle: 'u' })], layout: { ...axes, title: 'Reference' } },
      prediction: { data: [heatmapTrace({ values: pred, nx, ny, range, colorbarTitle: 'u' })], layout: { ...axes, title: 'Prediction' } },
      error: { data: [heatmapTrace({ values: err, nx, ny, scale: 'cividis', colorbarTitle: '|error|' })], layout: { ...axes, title: '|Prediction − reference|' } },
    };
  }, [sample, grid]);

  return (
    <section aria-labelledby="fields-title">
      <h1 id="fields-title">Fields</h1>
      <RunPicker />
      {run && (
        <div className="row wrap">
          <button onClick={evaluate} disabled={job?.state === 'running' || job?.state === 'queued' || run.bestEpoch == null} data-testid="fields-evaluate">
            Evaluate best checkpoint on validation
          </button>
          {run.bestEpoch == null && <span className="muted">This run has no checkpoint yet (no finished epoch).</span>}
          {job && job.state !== 'done' && <span data-testid={`fields-job-${job.state}`}>{job.state} {job.state === 'running' ? `${Math.round(job.progress * 100)}%` : ''}</span>}
          {job?.state === 'failed' && <span className="error-message" role="alert">Evaluation failed: {job.error}</span>}
          {error && <span className="error-message" role="alert">Could not evaluate: {error}</span>}
        </div>
      )}
      {res && (
        <>
          <div className="row wrap">
            <label htmlFor={sid}>Sample</label>
            <select id={sid} value={which} onChange={(e) => setWhich(e.target.value as Which)} data-testid="fields-which">
              {(['best', 'median', 'worst'] as const).map((w) => <option key={w} value={w}>{w}</option>)}
            </select>
            {sample && (
              <span data-testid="fields-info">
                validation sample {sample.index}, relL2 {sample.relL2.toPrecision(4)} (normalized); epoch {result!.epoch}; split relL2 {res.metrics.relL2.toPrecision(4)} normalized, {res.metrics.relL2Decoded.toPrecision(4)} decoded
              </span>
            )}
          </div>
          {!res.fields && <p className="muted">This run's task returns no sample fields (autoregressive runs are shown in the Rollout view).</p>}
          {plots && !plots.oneD && (
            <div className="fields-grid">
              <Plot title="Input field" data={plots.input.data} layout={plots.input.layout} height={300} testId="field-input" />
              <Plot title="Reference field" data={plots.reference.data} layout={plots.reference.layout} height={300} testId="field-reference" />
              <Plot title="Predicted field" data={plots.prediction.data} layout={plots.prediction.layout} height={300} testId="field-prediction" />
              <Plot title="Absolute error field" data={plots.error.data} layout={plots.error.layout} height={300} testId="field-error" />
            </div>
          )}
          {plots && plots.oneD && (
            <div className="plot-grid">
              <Plot title="Input" data={plots.input} layout={{ xaxis: { title: 'x index' }, yaxis: { title: 'input' } }} height={260} testId="field-input" />
              <Plot title="Reference, prediction and error" data={plots.data} layout={{ xaxis: { title: 'x index' }, yaxis: { title: 'u' }, yaxis2: { title: '|error|', overlaying: 'y', side: 'right' } }} height={260} testId="field-lines" />
            </div>
          )}
        </>
      )}
    </section>
  );
}
