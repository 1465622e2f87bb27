import { useEffect, useId, useMemo, useRef, useState } from 'react';
import type { DataSpec, EpochMetrics, RunSummary } from '../../../../main/api/contract';
import { useApp } from '../../store/app-store';
import { formatAdapter } from '../../components/engine-status';
import { useTraining } from '../../store/training-store';
import { draftToTrainModel, enabledComponents, formatBytes } from '../../store/model-draft';
import { emaSmooth, EMPTY_CURVES, runEta, formatSeconds } from '../../store/run-metrics';
import { Plot } from '../../plots/plot';
import { lineTrace, type Trace } from '../../plots/traces';
import { PLOT_COLORS } from '../../plots/theme';
import { RunPicker } from '../../components/run-picker';
import { usePersisted } from '../../store/persisted-state';
import { epochX, stepX, validScale, validXMode, X_TITLES, type AxisScale, type XMode } from '../../store/curve-axes';
import { TimeEstimate } from '../../components/time-estimate';

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
          name: name.trim() || (model.kind === 'fno' ? `FNO width ${model.width} modes ${model.modes} on ${dsName}` : `LiNO M=${model.width} L=${model.depth} on ${dsName}`),
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
        Model (from the Model view):{' '}
        {draft.kind === 'fno'
          ? `FNO, width ${draft.width}, modes ${draft.modes}, ${draft.depth} Fourier layers`
          : `LiNO, M = ${draft.width}, L = ${draft.depth}, ${draft.scattering} scattering, ${enabledComponents(draft).join(' + ')}`}{' '}
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
  const liveEta = runEta(epochSeconds, last && run.epochs != null ? Math.max(0, run.epochs - last.epoch) : null, stepEta);
  // Paused, the ETA stands still at what it said when the pause showed: records that trail the
  // pause (an epoch that finished meanwhile) do not move it.
  const frozen = useRef<{ id: string; eta: number | null } | null>(null);
  if (run.state !== 'paused') frozen.current = null;
  else if (frozen.current?.id !== run.id) frozen.current = { id: run.id, eta: liveEta };
  const eta = frozen.current ? frozen.current.eta : liveEta;
  const adapter = useApp((s) => s.engine?.backend.adapter);
  const backend = last?.backend ?? run.backend;
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
      <dd data-testid="stat-backend">{backend ?? '—'}{backend === 'webgpu' && adapter ? ` on ${formatAdapter(adapter)}` : ''}</dd>
      <dt>Memory</dt>
      <dd data-testid="stat-memory">{last ? `${formatBytes(last.peakRssBytes)} peak RSS, ${formatBytes(last.tfBytes)} tensors` : '—'}</dd>
    </dl>
  );
}

/** A labelled two/three-way choice drawn as a segmented radio group (persisted by the caller). */
function Choice<T extends string>({ label, value, options, onChange, testId }: { label: string; value: T; options: [T, string][]; onChange: (v: T) => void; testId: string }) {
  const name = useId();
  return (
    <fieldset className="row choice" data-testid={testId}>
      <legend className="small">{label}</legend>
      {options.map(([v, text]) => (
        <label key={v} className="small">
          <input type="radio" name={name} value={v} checked={value === v} onChange={() => onChange(v)} /> {text}
        </label>
      ))}
    </fieldset>
  );
}

const SCALES: [AxisScale, string][] = [['log', 'log'], ['linear', 'linear']];
const X_OPTIONS: [XMode, string][] = [['step', 'step'], ['epoch', 'epoch'], ['wall', 'wall time']];

function Curves({ runId }: { runId: string }) {
  const curves = useTraining((s) => s.curves[runId]) ?? EMPTY_CURVES;
  const theme = useApp((s) => s.theme);
  const [smoothing, setSmoothing] = useState(0.6);
  // Axis choices survive a reload (workspace UI state), like TensorBoard's per-chart toggles.
  // Step records (loss, gradient norm, rate) and epoch records (relL2, throughput) each have their x.
  const [xMode, setXMode] = usePersisted<XMode>('training.stepX', 'step', validXMode);
  const [epochMode, setEpochMode] = usePersisted<XMode>('training.epochX', 'epoch', validXMode);
  const [xScale, setXScale] = usePersisted<AxisScale>('training.xScale', 'linear', validScale);
  const [lossY, setLossY] = usePersisted<AxisScale>('training.lossYScale', 'log', validScale);
  const [epochY, setEpochY] = usePersisted<AxisScale>('training.epochYScale', 'log', validScale);
  const sid = useId();
  const colors = PLOT_COLORS[theme].lines;

  const sx = useMemo(() => stepX(curves.steps, curves.epochs, xMode), [curves.steps, curves.epochs, xMode]);
  // Epoch x needs the steps only by step: otherwise each live step would redraw the per-epoch plots.
  const stepsForEpochX = epochMode === 'step' ? curves.steps : EMPTY_CURVES.steps;
  const ex = useMemo(() => epochX(stepsForEpochX, curves.epochs, epochMode).map((v) => v ?? NaN), [stepsForEpochX, curves.epochs, epochMode]);

  const lossData = useMemo((): Trace[] => {
    const loss = curves.steps.map((r) => r.loss);
    const rel = curves.steps.map((r) => r.relL2);
    return [
      { ...lineTrace({ x: sx, y: loss, name: 'train loss (raw)', opacity: 0.25, width: 1, color: colors[0] }), showlegend: false, hoverinfo: 'skip' },
      lineTrace({ x: sx, y: emaSmooth(loss, smoothing), name: 'train loss', color: colors[0] }),
      { ...lineTrace({ x: sx, y: rel, name: 'train relL2 (raw)', opacity: 0.25, width: 1, color: colors[1] }), showlegend: false, hoverinfo: 'skip' },
      lineTrace({ x: sx, y: emaSmooth(rel, smoothing), name: 'train relL2 (normalized)', color: colors[1] }),
    ];
  }, [curves.steps, sx, smoothing, colors]);

  const epochData = useMemo((): Trace[] => {
    const e = curves.epochs;
    const out: Trace[] = [
      { ...lineTrace({ x: ex, y: e.map((r) => r.train.relL2), name: 'train relL2 (normalized)', color: colors[1] }), mode: 'lines+markers' },
      { ...lineTrace({ x: ex, y: e.map((r) => r.val.relL2), name: 'val relL2 (normalized)', color: colors[2] }), mode: 'lines+markers' },
      { ...lineTrace({ x: ex, y: e.map((r) => r.val.relL2Decoded), name: 'val relL2 (decoded)', color: colors[3], dash: 'dash' }), mode: 'lines+markers' },
    ];
    const last = e[e.length - 1];
    if (last) {
      const i = e.findIndex((r) => r.epoch === last.bestEpoch);
      if (i >= 0) out.push({ type: 'scatter', mode: 'markers', x: [ex[i]], y: [e[i]!.val.relL2], name: `best (epoch ${e[i]!.epoch})`, marker: { symbol: 'star', size: 14, color: colors[4] } });
    }
    return out;
  }, [curves.epochs, ex, colors]);

  // Global gradient norm before clipping (metrics.jsonl 'gradNorm'), smoothed like the loss, with
  // the learning rate on a second axis: one plot, so a live step redraws no more plots than before.
  const gradData = useMemo((): Trace[] => {
    const g = curves.steps.map((r) => r.gradNorm);
    const c = colors[5] ?? colors[0];
    return [
      { ...lineTrace({ x: sx, y: g, name: 'gradient norm (raw)', opacity: 0.25, width: 1, color: c }), showlegend: false, hoverinfo: 'skip' },
      lineTrace({ x: sx, y: emaSmooth(g, smoothing), name: 'gradient norm', color: c }),
      { ...lineTrace({ x: sx, y: curves.steps.map((r) => r.lr), name: 'learning rate', color: colors[0], dash: 'dot' }), yaxis: 'y2' },
    ];
  }, [curves.steps, sx, smoothing, colors]);

  // Throughput and memory per epoch (the epoch record's samplesPerSec, peakRssBytes, tfBytes).
  const systemData = useMemo((): Trace[] => {
    const e = curves.epochs;
    const mib = (b: number) => b / 2 ** 20;
    return [
      { type: 'scatter', mode: 'lines+markers', x: ex, y: e.map((r) => r.samplesPerSec), name: 'samples / s', line: { color: colors[0] } },
      { type: 'scatter', mode: 'lines+markers', x: ex, y: e.map((r) => mib(r.peakRssBytes)), name: 'peak RSS (MiB)', yaxis: 'y2', line: { color: colors[1], dash: 'dot' } },
      { type: 'scatter', mode: 'lines+markers', x: ex, y: e.map((r) => mib(r.tfBytes)), name: 'tensors (MiB)', yaxis: 'y2', line: { color: colors[2], dash: 'dash' } },
    ];
  }, [curves.epochs, ex, colors]);


  const legend = { orientation: 'h', y: 1.02, yanchor: 'bottom', x: 0 };
  const margin = { l: 60, r: 20, t: 50, b: 50 };
  const xaxis = useMemo(() => ({ title: X_TITLES[xMode], type: xScale }), [xMode, xScale]);
  const exaxis = useMemo(() => ({ title: X_TITLES[epochMode], type: xScale }), [epochMode, xScale]);
  const lossLayout = useMemo(() => ({ xaxis, yaxis: { title: 'Training objective / relL2', type: lossY }, legend, margin }), [xaxis, lossY]);
  const epochLayout = useMemo(() => ({ xaxis: { ...exaxis, dtick: epochMode === 'epoch' && xScale === 'linear' && curves.epochs.length < 10 ? 1 : undefined }, yaxis: { title: 'relL2', type: epochY }, legend, margin }), [exaxis, epochMode, xScale, epochY, curves.epochs.length]);
  const systemLayout = useMemo(() => ({ xaxis: exaxis, yaxis: { title: 'Samples / s', rangemode: 'tozero' }, yaxis2: { title: 'Memory (MiB)', overlaying: 'y', side: 'right', rangemode: 'tozero' }, legend, margin: { ...margin, r: 60 } }), [exaxis]);
  const gradLayout = useMemo(() => {
    // A constant rate (StepLR before its first step) would get an arbitrary autorange around it.
    const v = curves.steps.map((r) => r.lr);
    const lo = Math.min(...v);
    const hi = Math.max(...v);
    const range = v.length > 0 && hi - lo <= hi * 1e-6 ? [0, hi * 1.2] : undefined;
    return {
      xaxis,
      yaxis: { title: 'Gradient norm (before clipping)', type: lossY },
      yaxis2: { title: 'Learning rate', overlaying: 'y', side: 'right', exponentformat: 'e', tickformat: '.1e', range, rangemode: 'tozero', showgrid: false },
      legend,
      margin: { ...margin, r: 70 },
    };
  }, [curves.steps, xaxis, lossY]);

  return (
    <>
      <div className="row wrap">
        <label htmlFor={sid}>Smoothing</label>
        <input id={sid} data-testid="smoothing" type="range" min={0} max={0.99} step={0.01} value={smoothing} onChange={(e) => setSmoothing(Number(e.target.value))} />
        <output htmlFor={sid}>{smoothing.toFixed(2)}</output>
        <span className="muted small" data-testid="curve-points">{curves.steps.length} steps, {curves.epochs.length} epochs recorded</span>
      </div>
      <div className="row wrap" role="group" aria-label="Curve axes">
        <Choice label="Per-step plots: x" value={xMode} options={X_OPTIONS} onChange={setXMode} testId="x-mode" />
        <Choice label="Per-epoch plots: x" value={epochMode} options={X_OPTIONS} onChange={setEpochMode} testId="epoch-x-mode" />
        <Choice label="x scale" value={xScale} options={[['linear', 'linear'], ['log', 'log']]} onChange={setXScale} testId="x-scale" />
        <Choice label="Loss y scale" value={lossY} options={SCALES} onChange={setLossY} testId="loss-y-scale" />
        <Choice label="relL2 y scale" value={epochY} options={SCALES} onChange={setEpochY} testId="epoch-y-scale" />
      </div>
      <div className="plot-grid">
        <Plot title="Training loss per step" data={lossData} layout={lossLayout} height={300} testId="loss-plot" />
        <Plot title="Relative L2 error per epoch" data={epochData} layout={epochLayout} height={300} testId="epoch-plot" />
        <Plot title="Gradient norm and learning rate per step" data={gradData} layout={gradLayout} height={280} testId="grad-plot" />
        <Plot title="Throughput and memory per epoch" data={systemData} layout={systemLayout} height={260} testId="system-plot" />
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
