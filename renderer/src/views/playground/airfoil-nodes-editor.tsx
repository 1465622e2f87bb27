// The Playground on an airfoil run: the design element's 8 nodes (4 upper, 4 lower), each
// moved vertically within the generator's range by a slider. Once dragging pauses the generator makes
// the C-grid and its panel flow (the truth) in the solver's worker, and the run predicts on the mesh;
// drawn on the C-grid as the Fields and Datasets views draw airfoil data.
import { useEffect, useMemo, useState, type ReactNode } from 'react';
import type { PlaygroundTruth } from '../../../../main/api/contract';
import { Plot } from '../../plots/plot';
import type { Mesh } from '../../plots/mesh-field';
import { usePlayground } from '../../stores/playground';
import { designFigure, meshPanels, wallOf } from './flow-figures';
import { Slider } from './playground-slider';

/** The generator's displacement bound (every airfoil preset's; the engine refuses a node beyond its run's). */
export const DISPLACEMENT = 0.05;
const ZERO = [0, 0, 0, 0, 0, 0, 0, 0];

export function AirfoilNodesEditor({ children }: { children: ReactNode }) {
  const s = usePlayground();
  const { setSolveFirst, setDesign, runId } = s;
  // the model's input is the generator's mesh of the design: solve first, then predict on it
  useEffect(() => { setSolveFirst(true); return () => setSolveFirst(false); }, [setSolveFirst]);
  useEffect(() => { if (runId) setDesign(ZERO); }, [setDesign, runId]);
  const design = s.design ?? ZERO;
  // the last solved design (and its prediction once in) stays drawn while the next one is solved
  // (the store clears the prediction with the truth, so a prediction beside a truth is that truth's)
  const [shown, setShown] = useState<{ prediction: number[] | null; truth: PlaygroundTruth } | null>(null);
  useEffect(() => {
    const prediction = s.truth && s.prediction && s.prediction.grid.join() === s.truth.grid.join() ? s.prediction.prediction[0]! : null;
    // the truth alone only before the first pair: later, the last pair stays until the next is complete
    const truth = s.truth;
    if (truth?.input) setShown((old) => (prediction || !old ? { truth, prediction } : old));
  }, [s.truth, s.prediction]);
  const truth = shown?.truth ?? null;
  const mesh = useMemo((): Mesh | null => (truth?.input && truth.input.length >= 2 ? { x: truth.input[0]!, y: truth.input[1]!, rows: truth.grid[0]!, cols: truth.grid[1]! } : null), [truth]);
  const panels = useMemo(() => (mesh && truth ? meshPanels(mesh, shown!.prediction, truth.truth[0]!) : []), [mesh, shown, truth]);
  const shape = useMemo(() => designFigure(design, mesh ? wallOf(mesh) : null), [design, mesh]);
  return (
    <>
      <div className="card">
        <h2>Input: the 8 design nodes</h2>
        <p className="muted small">Each node moves vertically within ±{DISPLACEMENT} (the generator's range): U1–U4 on the design element's upper edge, L1–L4 on its lower edge, leading to trailing edge.</p>
        <div className="row" style={{ flexWrap: 'wrap' }}>
          {design.map((d, k) => (
            <Slider key={k} label={`${k < 4 ? 'U' : 'L'}${(k % 4) + 1}`} value={d} min={-DISPLACEMENT} max={DISPLACEMENT} step={0.0025} onChange={(v) => setDesign(design.map((o, j) => (j === k ? v : o)))} testId={`playground-node-${k}`} />
          ))}
          <button type="button" data-testid="playground-design-reset" onClick={() => setDesign(ZERO)}>NACA 0012</button>
        </div>
      </div>
      <div className="row" style={{ alignItems: 'flex-start', flexWrap: 'wrap' }}>
        <div style={{ flex: 1, minWidth: 300 }}>
          <Plot title={shape.title} data={shape.data} layout={shape.layout} height={240} testId={shape.testId} />
        </div>
        {children}
      </div>
      <div className="fields-grid">
        {panels.map((p) => <Plot key={p.testId} title={p.title} data={p.data} layout={p.layout} height={320} testId={p.testId} />)}
      </div>
    </>
  );
}
