import { useEffect, useId, useMemo, useState } from 'react';
import type { DataSpec, EpochMetrics, RunSummary } from '../../../main/api/contract';
import { useApp } from '../store/app-store';
import { useTraining } from '../store/training-store';
import { draftToTrainModel, enabledComponents, formatBytes } from '../store/model-draft';
import { emaSmooth, EMPTY_CURVES, runEta, formatSeconds } from '../store/run-metrics';
import { Plot } from '../plots/plot';
import { lineTrace, type Trace } from '../plots/traces';
import { PLOT_COLORS } from '../plots/theme';
import { RunPicker } from '../components/run-picker';
import { TimeEstimate } from '../components/time-estimate';

/** The paper's protocol (docs/training.md): 500 epochs, batch 4, AdamW lr 1e-3. */
export const PAPER_DEFAULTS = { epochs: 500, batchSize: 4, lr: 1e-3 };

function dataSpecFor(source: string): DataSpec {
  if (source.startsWith('dataset:')) return { kind: 'dataset', id: source.slice('dataset:'.length) };
  const [, benchmark, preset] = source.split(':');
  return { kind: 'generate', benchmark: benchmark as 'darcy', preset: preset as 'tiny' | 'quick' } as DataSpec;
}

function StartForm() {
  const workspace = useApp((s) => s.workspace);
  const draft = useApp((s) => s.modelDraft);
  const setView = useApp((s) => s.setView);
  const start = useTraining((s) => s.start);
  const [source, setSource] = useState('generate:darcy:quick');
  const [epochs, setEpochs] = useState(String(PAPER_DEFAULTS.epochs));
  const [batch, setBatch] = useState(String(PAPER_DEFAULTS.batchSize));
  const [lr, setLr] = useState(String(PAPER_DEFAULTS.lr));
  const [seeds, setSeeds] = useState('1');
  const [workers, setWorkers] = useState('1');
  const cores = useApp((s) => s.engine?.cores);
  const [name, setName] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const id = useId();
  const datasets = workspace?.datasets ?? [];
  useEffect(() => {
    // Prefer a dataset the workspace already holds (no generation needed).
    if (source.startsWith('generate:') && datasets.length > 0 && source === 'generate:darcy:quick') setSource(`dataset:${datasets[datasets.length - 1]!.id}`);
  }, [datasets.length]);

  const problems: Record<string, string> = {};
  const ep = Number(epochs);
  const bs = Number(batch);
  const lrv = Number(lr);
  const sd = Number(seeds);
  if (!Number.isInteger(ep) || ep < 1 || ep > 100000) problems.epochs = 'Epochs must be a whole number from 1 to 100000';
  if (!Number.isInteger(bs) || bs < 1 || bs > 4096) problems.batch = 'Batch size must be a whole number from 1 to 4096';
  if (!Number.isFinite(lrv) || lrv <= 0) problems.lr = 'Learning rate must be a positive number';
  if (!Number.isInteger(sd) || sd < 1 || sd > 20) problems.seeds = 'Seeds must be a whole number from 1 to 20';
  const wk = Number(workers);
  if (!Number.isInteger(wk) || wk < 1 || wk > 8) problems.workers = 'Workers must be a whole number from 1 to 8';
  const ok = Object.keys(problems).length === 0;

  const runConfig = () => {
    const model = draftToTrainModel(draft);
    return { data: dataSpecFor(source), model, epochs: ep, batchSize: bs, optimizer: { lr: lrv }, ...(wk > 1 ? { workers: wk } : {}) };
  };
  const submit = async () => {
    setBusy(true);
    setError(null);
    try {
      const model = draftToTrainModel(draft);
      const dsName = source.startsWith('dataset:') ? datasets.find((d) => `dataset:${d.id}` === source)?.name ?? source.slice(8) : source.split(':').slice(1).join(' ');
      await start({
        config: {
          name: name.trim() || `LiNO M=${model.width} L=${model.depth} on ${dsName}`,
          data: dataSpecFor(source),
          model,
          epochs: ep,
          batchSize: bs,
          optimizer: { lr: lrv },
          ...(wk > 1 ? { workers: wk } : {}),
        },
        seeds: sd,
      });
    } catch (e) {
      setError(e instanceof Error ? e.message : String(e));
    } finally {
      setBusy(false);
    }
  };

  const field = (key: string, label: string, value: string, set: (v: string) => void, extra: Record<string, unknown> = {}) => (
    <div className="field">
      <label htmlFor={`${id}-${key}`}>{label}</label>
      <input id={`${id}-${key}`} data-testid={`train-${key}`} value={value} onChange={(e) => set(e.target.value)} aria-invalid={problems[key] ? true : undefined} aria-describedby={problems[key] ? `${id}-${key}-msg` : undefined} {...extra} />
      {problems[key] && <span id={`${id}-${key}-msg`} className="field-msg error-message">{problems[key]}</span>}
    </div>
  );

  return (
    <div className="card" aria-labelledby={`${id}-t`} role="group">
      <h2 id={`${id}-t`}>New run</h2>
      <div className="field">
        <label htmlFor={`${id}-src`}>Data</label>
        <select id={`${id}-src`} data-testid="train-data" value={source} onChange={(e) => setSource(e.target.value)}>
          {datasets.length > 0 && (
            <optgroup label="Workspace datasets">
              {datasets.map((d) => <option key={d.id} value={`dataset:${d.id}`}>{d.name}</option>)}
            </optgroup>
          )}
          <optgroup label="Generate">
            <option value="generate:darcy:tiny">Darcy, tiny preset (seconds)</option>
            <option value="generate:darcy:quick">Darcy, quick preset</option>
          </optgroup>
        </select>
      </div>
      <p className="small">
        Model (from the Model view): M = {draft.width}, L = {draft.depth}, {draft.scattering} scattering, {enabledComponents(draft).join(' + ')}{' '}
        <button className="link" onClick={() => setView('model')}>Edit model</button>
      </p>
      {field('name', 'Name (optional)', name, setName)}
      <div className="field-pairs">
        {field('epochs', 'Epochs', epochs, setEpochs, { type: 'number', min: 1, max: 100000 })}
        {field('batch', 'Batch size', batch, setBatch, { type: 'number', min: 1, max: 4096 })}
        {field('lr', 'Learning rate', lr, setLr, { type: 'number', step: 'any', min: 0 })}
        {field('seeds', 'Seeds (group)', seeds, setSeeds, { type: 'number', min: 1, max: 20 })}
        <div className="field">
          <label htmlFor={`${id}-workers`}>Workers</label>
          <input id={`${id}-workers`} data-testid="train-workers" type="number" min={1} max={8} value={workers} onChange={(e) => setWorkers(e.target.value)}
            aria-invalid={problems.workers ? true : undefined} aria-describedby={problems.workers ? `${id}-workers-msg` : `${id}-workers-hint`} />
          {problems.workers
            ? <span id={`${id}-workers-msg`} className="field-msg error-message">{problems.workers}</span>
            // data-parallel threads per step (wasm/cpu): same results, more samples/s up to the core count
            : <span id={`${id}-workers-hint`} className="field-msg muted small" data-testid="train-workers-hint">{cores ? `This machine has ${cores} cores` : 'Threads per step'}; same results as 1</span>}
        </div>
      </div>
      <div className="row">
        <button data-testid="train-start" onClick={submit} disabled={!ok || busy}>{busy ? 'Starting…' : 'Start training'}</button>
        <span className="muted small">AdamW, StepLR(5, 0.96), clip 1.0 (paper defaults)</span>
      </div>
      <TimeEstimate config={ok ? runConfig() : null} />
      {error && <p className="error-message" role="alert" data-testid="train-start-error">Could not start the run: {error}</p>}
    </div>
  );
}

function RunControls({ run }: { run: RunSummary }) {
  const control = useTraining((s) => s.control);
  const error = useTraining((s) => s.runErrors[run.id]);
  const active = run.state === 'running' || run.state === 'queued';
  return (
    <div>
      <div className="row wrap" role="group" aria-label="Run controls">
        <span data-testid="run-state" className={`state state-${run.state}`}>{run.state}</span>
        {run.state === 'running' && <button data-testid="run-pause" onClick={() => control(run.id, 'pause')}>Pause</button>}
        {(run.state === 'paused' || run.state === 'interrupted' || run.state === 'stopped') && (
          <button data-testid="run-resume" onClick={() => control(run.id, 'resume')}>Resume</button>
        )}
        {(active || run.state === 'paused') && <button data-testid="run-stop" onClick={() => control(run.id, 'stop')}>Stop</button>}
        {run.reason && <span className="muted small" data-testid="run-reason">{run.reason}</span>}
      </div>
      {error && <p className="error-message" role="alert" data-testid="run-error">{error}</p>}
    </div>
  );
}

function Stats({ run, last, lastLr, epochSeconds }: { run: RunSummary; last: EpochMetrics | undefined; lastLr: number | undefined; epochSeconds: number[] }) {
  const stepEta = useTraining((s) => s.stepEta[run.id]);
  const eta = runEta(epochSeconds, last && run.epochs != null ? Math.max(0, run.epochs - last.epoch) : null, stepEta);
  return (
    <dl className="stats" data-testid="run-stats">
      <dt>Epoch</dt>
      <dd data-testid="stat-epoch">{run.epochsDone} / {run.epochs ?? '?'}</dd>
      <dt>Best val relL2 (normalized)</dt>
      <dd data-testid="stat-best">{last ? `${last.bestValRelL2.toPrecision(4)} at epoch ${last.bestEpoch}` : '—'}</dd>
      <dt>Learning rate</dt>
      <dd>{lastLr != null ? lastLr.toExponential(3) : '—'}</dd>
      <dt>Samples / s</dt>
      <dd data-testid="stat-throughput">{last ? last.samplesPerSec.toFixed(1) : '—'}</dd>
      <dt>ETA</dt>
      <dd data-testid="stat-eta">{eta != null && (run.state === 'running' || run.state === 'paused') ? `${formatSeconds(eta)}${run.state === 'paused' ? ' (paused)' : ''}` : '—'}</dd>
      <dt>Backend</dt>
      <dd data-testid="stat-backend">{last?.backend ?? run.backend ?? '—'}</dd>
      <dt>Memory</dt>
      <dd data-testid="stat-memory">{last ? `${formatBytes(last.peakRssBytes)} peak RSS, ${formatBytes(last.tfBytes)} tensors` : '—'}</dd>
    </dl>
  );
}

function Curves({ runId }: { runId: string }) {
  const curves = useTraining((s) => s.curves[runId]) ?? EMPTY_CURVES;
  const theme = useApp((s) => s.theme);
  const [smoothing, setSmoothing] = useState(0.6);
  const sid = useId();
  const colors = PLOT_COLORS[theme].lines;

  const lossData = useMemo((): Trace[] => {
    const x = curves.steps.map((r) => r.step);
    const loss = curves.steps.map((r) => r.loss);
    const rel = curves.steps.map((r) => r.relL2);
    return [
      { ...lineTrace({ x, y: loss, name: 'train loss (raw)', opacity: 0.25, width: 1, color: colors[0] }), showlegend: false, hoverinfo: 'skip' },
      lineTrace({ x, y: emaSmooth(loss, smoothing), name: 'train loss', color: colors[0] }),
      { ...lineTrace({ x, y: rel, name: 'train relL2 (raw)', opacity: 0.25, width: 1, color: colors[1] }), showlegend: false, hoverinfo: 'skip' },
      lineTrace({ x, y: emaSmooth(rel, smoothing), name: 'train relL2 (normalized)', color: colors[1] }),
    ];
  }, [curves.steps, smoothing, colors]);

  const epochData = useMemo((): Trace[] => {
    const e = curves.epochs;
    const x = e.map((r) => r.epoch);
    const out: Trace[] = [
      { ...lineTrace({ x, y: e.map((r) => r.train.relL2), name: 'train relL2 (normalized)', color: colors[1] }), mode: 'lines+markers' },
      { ...lineTrace({ x, y: e.map((r) => r.val.relL2), name: 'val relL2 (normalized)', color: colors[2] }), mode: 'lines+markers' },
      { ...lineTrace({ x, y: e.map((r) => r.val.relL2Decoded), name: 'val relL2 (decoded)', color: colors[3], dash: 'dash' }), mode: 'lines+markers' },
    ];
    const last = e[e.length - 1];
    if (last) {
      const best = e.find((r) => r.epoch === last.bestEpoch);
      if (best) out.push({ type: 'scatter', mode: 'markers', x: [best.epoch], y: [best.val.relL2], name: `best (epoch ${best.epoch})`, marker: { symbol: 'star', size: 14, color: colors[4] } });
    }
    return out;
  }, [curves.epochs, colors]);

  const lrData = useMemo((): Trace[] => [lineTrace({ x: curves.steps.map((r) => r.step), y: curves.steps.map((r) => r.lr), name: 'learning rate', color: colors[0] })], [curves.steps, colors]);

  const lossLayout = useMemo(() => ({ xaxis: { title: 'Optimizer step' }, yaxis: { title: 'Training objective / relL2', type: 'log' }, legend: { orientation: 'h', y: 1.02, yanchor: 'bottom', x: 0 }, margin: { l: 60, r: 20, t: 50, b: 50 } }), []);
  const epochLayout = useMemo(() => ({ xaxis: { title: 'Epoch', dtick: curves.epochs.length < 10 ? 1 : undefined }, yaxis: { title: 'relL2', type: 'log' }, legend: { orientation: 'h', y: 1.02, yanchor: 'bottom', x: 0 }, margin: { l: 60, r: 20, t: 50, b: 50 } }), [curves.epochs.length]);
  const lrLayout = useMemo(() => {
    // A constant rate (StepLR before its first step) would get an arbitrary autorange around it.
    const v = curves.steps.map((r) => r.lr);
    const lo = Math.min(...v);
    const hi = Math.max(...v);
    const range = v.length > 0 && hi - lo <= hi * 1e-6 ? [0, hi * 1.2] : undefined;
    return { xaxis: { title: 'Optimizer step' }, yaxis: { title: 'Learning rate', exponentformat: 'e', tickformat: '.2e', range, rangemode: 'tozero' }, showlegend: false };
  }, [curves.steps]);

  return (
    <>
      <div className="row">
        <label htmlFor={sid}>Smoothing</label>
        <input id={sid} data-testid="smoothing" type="range" min={0} max={0.99} step={0.01} value={smoothing} onChange={(e) => setSmoothing(Number(e.target.value))} />
        <output htmlFor={sid}>{smoothing.toFixed(2)}</output>
        <span className="muted small" data-testid="curve-points">{curves.steps.length} steps, {curves.epochs.length} epochs recorded</span>
      </div>
      <div className="plot-grid">
        <Plot title="Training loss per step" data={lossData} layout={lossLayout} height={300} testId="loss-plot" />
        <Plot title="Relative L2 error per epoch" data={epochData} layout={epochLayout} height={300} testId="epoch-plot" />
        <Plot title="Learning rate" data={lrData} layout={lrLayout} height={220} testId="lr-plot" />
      </div>
    </>
  );
}

export function TrainingView() {
  const runs = useTraining((s) => s.runs);
  const selected = useTraining((s) => s.selectedRun);
  const curves = useTraining((s) => (selected ? s.curves[selected] : undefined));
  const refreshRuns = useTraining((s) => s.refreshRuns);
  const run = runs.find((r) => r.id === selected);
  const queued = runs.filter((r) => r.state === 'queued');
  useEffect(() => {
    void refreshRuns();
  }, [refreshRuns]);
  const last = curves?.epochs[curves.epochs.length - 1];
  const lastLr = curves?.steps[curves.steps.length - 1]?.lr ?? last?.lr;
  const epochSeconds = useMemo(() => (curves?.epochs ?? []).map((e) => e.epochSeconds), [curves]);
  return (
    <section aria-labelledby="training-title" className="training-view">
      <h1 id="training-title">Training</h1>
      <div className="training-grid">
        <div>
          <StartForm />
          {queued.length > 0 && (
            <div className="card" data-testid="queue">
              <h2>Queue</h2>
              <ol>{queued.map((r) => <li key={r.id}>{r.name}</li>)}</ol>
            </div>
          )}
        </div>
        <div className="card">
          <h2>Run</h2>
          <RunPicker />
          {run && (
            <>
              <RunControls run={run} />
              <Stats run={run} last={last} lastLr={lastLr} epochSeconds={epochSeconds} />
            </>
          )}
        </div>
      </div>
      {run && <Curves runId={run.id} />}
    </section>
  );
}
