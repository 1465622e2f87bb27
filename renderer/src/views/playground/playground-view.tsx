// The Playground: pick a trained run, draw a fresh Darcy coefficient or paint one (value
// 3 or 12, brush size), or a fresh Burgers u0 and add bumps to it, change its resolution; the run's prediction follows the painting, the
// solver's truth, |error| and relL2 follow when the solver is done. Beside them: where this relL2
// falls among the run's validation samples, and how far the input is from the training inputs.
import { useEffect, useId, useMemo, useState } from 'react';
import { RunPicker } from '../../components/run-picker';
import { NumberField } from '../../components/number-field';
import { Plot } from '../../plots/plot';
import { sharedRange } from '../../plots/colorscales';
import { lineTrace } from '../../plots/traces';
import { useTraining } from '../../stores/training-store';
import { useApp } from '../../stores/app-store';
import { datasetNameById } from '../../queries/dataset-names';
import { usePlayground, usePlaygroundValidation } from '../../stores/playground';
import { rankAmong } from '../../logic/playground-fields';
import { PaintCanvas } from './paint-canvas';
import { playgroundPanels } from './playground-figures';
import { Slider } from './playground-slider';
import { usePlaygroundRunInfo } from '../../queries/playground-run-info';
import { NsVortexEditor } from './ns-vortex-editor';
import { AirfoilNodesEditor } from './airfoil-nodes-editor';
import { SamplePicker } from './sample-picker';
import { LightMapsPanel } from './light-maps-panel';
import { KeepCard } from './keep-card';
import { PlaygroundDiagnostics } from './playground-diagnostics';

function DrawControls() {
  const draw = usePlayground((s) => s.draw);
  const input = usePlayground((s) => s.input);
  const setResolution = usePlayground((s) => s.setResolution);
  const [o, setO] = useState({ seed: 1, tau: 3, threshold: 0 });
  const oneD = input?.grid.length === 1;
  const n = input?.grid[0] ?? 0;
  return (
    <div className="card">
      <h2>Input</h2>
      <div className="row">
        {!oneD && <Slider label="Length scale (tau)" value={o.tau} min={1} max={12} step={0.5} onChange={(tau) => setO({ ...o, tau })} testId="playground-tau" />}
        {!oneD && <Slider label="Threshold" value={o.threshold} min={-1.5} max={1.5} step={0.1} onChange={(threshold) => setO({ ...o, threshold })} testId="playground-threshold" />}
        <NumberField label="Seed" inline value={o.seed} min={0} onChange={(seed) => setO({ ...o, seed: Math.max(0, Math.floor(seed) || 0) })} testId="playground-seed" />
        <button type="button" data-testid="playground-draw" onClick={() => void draw(o)}>{oneD ? 'Draw a fresh u0' : 'Draw a fresh GRF sample'}</button>
      </div>
      {input && !oneD && <Slider label="Resolution" value={n} min={16} max={128} step={1} onChange={setResolution} testId="playground-resolution" />}
      {/* Burgers solves on power-of-two grids: the slider steps through them */}
      {input && oneD && <Slider label="Resolution (2^k points)" value={Math.round(Math.log2(n))} min={4} max={9} step={1} onChange={(k) => setResolution(2 ** k)} testId="playground-resolution" />}
    </div>
  );
}

function BumpControls({ n, onBump }: { n: number; onBump(at: number, width: number, height: number): void }) {
  const [b, setB] = useState({ at: Math.floor(n / 2), width: Math.max(1, Math.floor(n / 16)), height: 0.5 });
  return (
    <div className="row">
      <Slider label="Bump at" value={Math.min(b.at, n - 1)} min={0} max={n - 1} step={1} onChange={(at) => setB({ ...b, at })} testId="playground-bump-at" />
      <Slider label="Width" value={b.width} min={1} max={Math.max(2, Math.floor(n / 4))} step={1} onChange={(width) => setB({ ...b, width })} testId="playground-bump-width" />
      <NumberField label="Height" inline value={b.height} step="any" onChange={(height) => setB({ ...b, height: Number.isFinite(height) ? height : 0 })} testId="playground-bump-height" />
      <button type="button" data-testid="playground-bump" onClick={() => onBump(Math.min(b.at, n - 1), b.width, b.height)}>Add a bump to u0</button>
    </div>
  );
}

function Context() {
  const runId = usePlayground((s) => s.runId);
  const relL2 = usePlayground((s) => s.relL2);
  const prediction = usePlayground((s) => s.prediction);
  const validation = usePlaygroundValidation(runId);
  const rank = relL2 !== null && validation ? rankAmong(relL2, validation) : null;
  return (
    <div className="card" aria-live="polite">
      <h2>Error and context</h2>
      <p data-testid="playground-rell2">{relL2 !== null ? `relL2 ${relL2.toPrecision(7)}` : 'relL2: waiting for the solver'}</p>
      <p className="small" data-testid="playground-rank">
        {rank ? `Worse than ${rank.below} of the ${rank.of} validation samples (relL2 ${Math.min(...validation!).toPrecision(3)} to ${Math.max(...validation!).toPrecision(3)}).` : validation ? '' : 'Evaluate the run (Fields view) to see where this input falls among its validation samples.'}
      </p>
      {prediction && <p className="small" data-testid="playground-distance" data-level={prediction.distance.level}>{prediction.distance.label}</p>}
      {prediction && <p className="muted small">{prediction.kind} on {prediction.backend}: forward pass {prediction.ms.toFixed(0)} ms</p>}
    </div>
  );
}

function SaveCard() {
  const save = usePlayground((s) => s.save);
  const saved = usePlayground((s) => s.saved);
  const truth = usePlayground((s) => s.truth);
  const [name, setName] = useState('playground');
  const savedName = useApp((a) => (saved ? datasetNameById(a.workspace, saved) : ''));
  const id = useId();
  return (
    <div className="row">
      <label htmlFor={id}>Dataset name</label>
      <input id={id} value={name} onChange={(e) => setName(e.target.value)} data-testid="playground-name" />
      <button type="button" disabled={!truth} data-testid="playground-save" onClick={() => void save(name)}>Save input and truth as a dataset</button>
      {saved && <span role="status" data-testid="playground-saved" data-dataset-id={saved}>Saved as dataset {savedName}</span>}
    </div>
  );
}

export function PlaygroundView() {
  const selected = useTraining((s) => s.selectedRun);
  const refreshRuns = useTraining((s) => s.refreshRuns);
  const s = usePlayground();
  const [value, setValue] = useState(12);
  const [size, setSize] = useState(2);
  useEffect(() => void refreshRuns(), [refreshRuns]);
  const setRun = s.setRun;
  useEffect(() => setRun(selected), [setRun, selected]);
  // Navier-Stokes and airfoil runs: editors of their own (the solver makes the model's input)
  const info = usePlaygroundRunInfo(selected);
  const flow = info && s.runId === selected && (info.benchmark === 'navier-stokes' || info.benchmark === 'airfoil') ? info : null;
  const truth = s.truth && s.input && s.truth.grid.join() === s.input.grid.join() ? s.truth.truth[0]! : null;
  const panels = useMemo(() => (s.prediction && s.input && s.prediction.grid.join() === s.input.grid.join() ? playgroundPanels(s.input.grid, s.prediction.prediction[0]!, truth) : []), [s.prediction, s.input, truth]);
  const inRange = useMemo(() => (s.input ? sharedRange(s.input.channels[0]!) : ([0, 1] as [number, number])), [s.input]);
  return (
    <section aria-labelledby="playground-title">
      <h1 id="playground-title">Playground</h1>
      <p className="muted">Paint or draw an input, see the operator's prediction at once, the solver's truth, |error| and relL2 when the solver is done.</p>
      <RunPicker />
      {selected && info && !flow && <DrawControls />}
      {selected && info && !flow && <SamplePicker />}
      {flow?.benchmark === 'navier-stokes' && <NsVortexEditor key={selected} tOut={flow.autoregressive?.tOut ?? 1}><Context /></NsVortexEditor>}
      {flow?.benchmark === 'airfoil' && <AirfoilNodesEditor key={selected}><Context /></AirfoilNodesEditor>}
      {s.error && <p className="error" role="alert" data-testid="playground-error-text">{s.error}</p>}
      {!flow && s.input && s.input.grid.length === 2 && (
        <div className="row" style={{ alignItems: 'flex-start', flexWrap: 'wrap' }}>
          <div>
            <h2>Input coefficient</h2>
            <PaintCanvas values={s.input.channels[0]!} nx={s.input.grid[0]!} ny={s.input.grid[1]!} range={inRange} onPaint={(i, j) => s.paint(i, j, size, value)} />
            <div className="row">
              <span>Brush value</span>
              {[3, 12].map((v) => (
                <label key={v}><input type="radio" name="pg-value" checked={value === v} onChange={() => setValue(v)} data-testid={`playground-value-${v}`} /> {v}</label>
              ))}
              <Slider label="Brush size" value={size} min={0} max={8} step={1} onChange={setSize} testId="playground-brush" />
            </div>
          </div>
          <Context />
        </div>
      )}
      {!flow && s.input && s.input.grid.length === 1 && (
        <div className="row" style={{ alignItems: 'flex-start', flexWrap: 'wrap' }}>
          <div style={{ flex: 1 }}>
            <Plot title="Input u0" data={[lineTrace({ y: s.input.channels[0]!, name: 'u0' })]} layout={{ xaxis: { title: 'x index' }, yaxis: { title: 'u0' } }} height={240} testId="playground-input-line" />
            <BumpControls n={s.input.grid[0]!} onBump={(at, width, height) => s.paint(at, 0, width, height)} />
          </div>
          <Context />
        </div>
      )}
      <p className="muted small" data-testid="playground-status">{s.predicting ? 'Predicting…' : ''} {s.solving ? 'Solving…' : s.truth ? `Truth: ${s.truth.solver}, ${s.truth.ms.toFixed(0)} ms` : ''}</p>
      <div className="fields-grid">
        {!flow && panels.map((p) => <Plot key={p.testId} title={p.title} data={p.data} layout={p.layout} height={300} {...(p.aspect ? { aspect: p.aspect } : {})} testId={p.testId} />)}
      </div>
      {(s.input || s.design) && <PlaygroundDiagnostics />}
      {(s.input || s.design) && <SaveCard />}
      {!flow && s.input && s.prediction?.kind === 'lino' && <LightMapsPanel />}
      {!flow && s.input && <KeepCard />}
    </section>
  );
}
