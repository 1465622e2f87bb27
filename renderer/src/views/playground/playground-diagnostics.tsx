// Live with each Playground prediction: whether it obeys the PDE (its residual, the truth's beside it
// once the solver has answered), where its error lives once there is a truth (error spectrum and
// bands), and the trust panel (seed-group spread, distance to the training inputs, physics).
import { usePlayground } from '../../stores/playground';
import { PhysicsCheck, SpectrumBands } from '../../components/error-diagnostics';
import { TrustPanel } from '../../components/trust-panel';

export function PlaygroundDiagnostics() {
  const prediction = usePlayground((s) => s.prediction);
  const truth = usePlayground((s) => s.truth);
  const solveFirst = usePlayground((s) => s.solveFirst);
  const painted = usePlayground((s) => s.input);
  const version = usePlayground((s) => s.version);
  // the model's input: the painted one, or the one the solver made (Navier-Stokes history, airfoil mesh)
  const input = solveFirst ? (truth?.input ? { grid: truth.grid, channels: truth.input } : null) : painted;
  const d = prediction?.diagnostics;
  if (!prediction || !input || !d) return null;
  const s = d.spectrum;
  return (
    <div data-testid="playground-diagnostics">
      <h2>Where the error lives</h2>
      {s ? <SpectrumBands entries={[{ name: 'this input', summary: s.mean }]} bands={s.bands} title="Error spectrum of this prediction" testId="playground-spectrum" />
        : <p className="muted small">The error spectrum follows once the solver's truth is in.</p>}
      {s && s.channels > 1 && <p className="muted small">Averaged over the {s.channels} rollout steps (the Rollout view shows them step by step).</p>}
      <h3>Physics of this prediction</h3>
      <PhysicsCheck physics={d.physics} testId="playground-physics" />
      <TrustPanel key={`${prediction.runId}|${version}`} runId={prediction.runId} input={input} physics={d.physics} what="this input" relL2={prediction.relL2} />
    </div>
  );
}
