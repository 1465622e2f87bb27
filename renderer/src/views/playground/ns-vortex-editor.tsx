// The Playground on a Navier-Stokes run: a w0 drawn from the generator's own distribution
// (seed) with Gaussian vortices added, moved and shaped (position, radius, strength; a click on w0
// moves the selected one). The solver makes the T_in history and T_out frames; the run rolls out from
// the history; a step slider picks the frame shown (prediction, truth, |error| and that step's relL2).
import { useEffect, useMemo, useState, type ReactNode } from 'react';
import type { PlaygroundPrediction, PlaygroundTruth, PlaygroundVortex } from '../../../../main/api/contract';
import { NumberField } from '../../components/number-field';
import { Plot } from '../../plots/plot';
import { usePlayground } from '../../stores/playground';
import { historyFigure, stepPanels, vorticityFigure } from './flow-figures';
import { Slider } from './playground-slider';

const NEW_VORTEX: PlaygroundVortex = { x: 0.5, y: 0.5, radius: 0.08, strength: 5 };

function VortexControls({ v, k, onChange, onRemove }: { v: PlaygroundVortex; k: number; onChange(v: PlaygroundVortex): void; onRemove(): void }) {
  return (
    <div className="row" data-testid={`playground-vortex-${k}`}>
      <strong>Vortex {k + 1}</strong>
      <Slider label="x" value={v.x} min={0} max={1} step={0.01} onChange={(x) => onChange({ ...v, x })} testId={`playground-vortex-${k}-x`} />
      <Slider label="y" value={v.y} min={0} max={1} step={0.01} onChange={(y) => onChange({ ...v, y })} testId={`playground-vortex-${k}-y`} />
      <Slider label="Radius" value={v.radius} min={0.02} max={0.3} step={0.01} onChange={(radius) => onChange({ ...v, radius })} testId={`playground-vortex-${k}-radius`} />
      <Slider label="Strength" value={v.strength} min={-20} max={20} step={0.5} onChange={(strength) => onChange({ ...v, strength })} testId={`playground-vortex-${k}-strength`} />
      <button type="button" onClick={onRemove}>Remove</button>
    </div>
  );
}

export function NsVortexEditor({ tOut, children }: { tOut: number; children: ReactNode }) {
  const s = usePlayground();
  const draw = s.draw;
  const [seed, setSeed] = useState(1);
  const [vortices, setVortices] = useState<PlaygroundVortex[]>([NEW_VORTEX]);
  const [selected, setSelected] = useState(0);
  const [step, setStep] = useState(1);
  const setSolveFirst = s.setSolveFirst;
  // the model's input is the solver's history: predict once the solver is done
  useEffect(() => { setSolveFirst(true); return () => setSolveFirst(false); }, [setSolveFirst]);
  // every change of the seed or a vortex draws the w0 again (the same seed gives the same field)
  useEffect(() => void draw({ seed, vortices }), [draw, seed, vortices, s.runId]);
  const n = s.input?.grid[0] ?? 0;
  const current = s.prediction && s.truth && s.prediction.grid.join() === s.truth.grid.join() && s.prediction.prediction.length === s.truth.truth.length ? s.prediction : null;
  // the last complete answer stays drawn while the next input is solved (the panels are not torn down on every change)
  const [shown, setShown] = useState<{ prediction: PlaygroundPrediction; truth: PlaygroundTruth } | null>(null);
  const truth = s.truth;
  useEffect(() => { if (current && truth) setShown({ prediction: current, truth }); }, [current, truth]);
  const history = shown?.truth.input;
  const k = Math.min(step, tOut) - 1;
  const stepRel = shown?.prediction.steps?.[k];
  // figures only when what they show changes: a Plotly redraw on every store change would race the panels' unmount
  const input = s.input;
  const w0Figure = useMemo(() => (input && n > 0 ? vorticityFigure(input.channels[0]!, n, vortices, selected) : null), [input, n, vortices, selected]);
  const historyPanel = useMemo(() => (shown && history && history.length > 0 ? historyFigure(history[history.length - 1]!, shown.truth.grid[0]!, history.length) : null), [shown, history]);
  const panels = useMemo(() => (shown ? stepPanels(shown.prediction.grid[0]!, shown.prediction.prediction, shown.truth.truth, k) : []), [shown, k]);
  const setVortex = (i: number, v: PlaygroundVortex) => setVortices(vortices.map((o, j) => (j === i ? v : o)));
  return (
    <>
      <div className="card">
        <h2>Input: w0 and its vortices</h2>
        <div className="row">
          <NumberField label="Seed" inline value={seed} min={0} onChange={(v) => setSeed(Math.max(0, Math.floor(v) || 0))} testId="playground-seed" />
          <button type="button" data-testid="playground-add-vortex" disabled={vortices.length >= 8} onClick={() => { setVortices([...vortices, NEW_VORTEX]); setSelected(vortices.length); }}>Add a vortex</button>
        </div>
        {vortices.map((v, i) => (
          <div key={i} onFocus={() => setSelected(i)}>
            <VortexControls v={v} k={i} onChange={(nv) => { setSelected(i); setVortex(i, nv); }} onRemove={() => { setVortices(vortices.filter((_, j) => j !== i)); setSelected(0); }} />
          </div>
        ))}
      </div>
      <div className="row" style={{ alignItems: 'flex-start', flexWrap: 'wrap' }}>
        {w0Figure && (
          <div style={{ flex: 1, minWidth: 300 }}>
            <Plot title={w0Figure.title} data={w0Figure.data} layout={w0Figure.layout} height={320} {...(w0Figure.aspect ? { aspect: w0Figure.aspect } : {})} testId={w0Figure.testId} onClick={(p) => vortices[selected] && setVortex(selected, { ...vortices[selected]!, x: Math.min(1, Math.max(0, p.x / n)), y: Math.min(1, Math.max(0, p.y / n)) })} />
          </div>
        )}
        {children}
      </div>
      <div className="row">
        <Slider label={`Rollout step (of ${tOut})`} value={Math.min(step, tOut)} min={1} max={tOut} step={1} onChange={setStep} testId="playground-step" />
        <span data-testid="playground-step-rell2">{stepRel !== undefined ? `relL2 at step ${k + 1}: ${stepRel.toPrecision(5)}` : ''}</span>
      </div>
      <div className="fields-grid">
        {historyPanel && <Plot title={historyPanel.title} data={historyPanel.data} layout={historyPanel.layout} height={300} {...(historyPanel.aspect ? { aspect: historyPanel.aspect } : {})} testId={historyPanel.testId} />}
        {panels.map((p) => <Plot key={p.testId} title={p.title} data={p.data} layout={p.layout} height={300} {...(p.aspect ? { aspect: p.aspect } : {})} testId={p.testId} />)}
      </div>
    </>
  );
}
