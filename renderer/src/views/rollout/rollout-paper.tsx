// The rollout's paper figure: reference and prediction rows at the steps the user lists (evenly
// spaced by default), laid out for an edge-to-edge export.
import { useId, useMemo } from 'react';
import { Plot } from '../../plots/plot';
import { rolloutPaperFigure, rolloutPaperSize } from '../../plots/rollout-paper-figure';
import { evenlySpacedSteps, parseSteps } from '../../plots/rollout-steps';
import { errorText } from '../../api/error-text';
import type { Field } from './rollout-result';

export function RolloutPaper({ sample, grid, total, figText, onFigText }: { sample: Field; grid: number[]; total: number; figText: string | null; onFigText(t: string | null): void }) {
  const id = useId();
  const figValue = figText ?? evenlySpacedSteps(total, 5).join(', ');
  const figSteps = parseSteps(figValue, total);
  const paper = useMemo(() => {
    if (grid.length !== 2 || 'error' in figSteps) return null;
    try {
      return { figure: rolloutPaperFigure({ reference: sample.reference, prediction: sample.prediction, grid }, figSteps.steps), size: rolloutPaperSize(figSteps.steps.length), error: null };
    } catch (e) {
      return { figure: null, size: null, error: errorText(e) };
    }
    // figSteps is rebuilt each render; its text (figValue) is the stable key.
  }, [sample, total, grid, figValue]);
  return (
    <>
      <h2>Paper figure</h2>
      <div className="row wrap">
        <label htmlFor={`${id}-fig`}>Steps shown</label>
        <input id={`${id}-fig`} type="text" value={figValue} onChange={(e) => onFigText(e.target.value)} aria-invalid={'error' in figSteps ? true : undefined} aria-describedby={`${id}-fig-msg`} data-testid="rollout-figure-steps" />
        <button onClick={() => onFigText(null)}>Evenly spaced</button>
        <span id={`${id}-fig-msg`} className={'error' in figSteps ? 'error-message small' : 'muted small'}>
          {'error' in figSteps ? `Steps shown: ${figSteps.error}` : `1 to ${total}, separated by commas`}
        </span>
      </div>
      {paper?.error && <p className="error-message" role="alert">Could not compose the figure: {paper.error}</p>}
      {paper?.figure && paper.size && (
        <div style={{ maxWidth: paper.size.width }}>
          <p className="muted small" data-testid="rollout-paper-size">
            Laid out for {paper.size.width} × {paper.size.height} px: export at that width and height for edge-to-edge tiles (other sizes keep the tiles square, with wider gaps).
          </p>
          <Plot title="Rollout paper figure" data={paper.figure.data} layout={paper.figure.layout} height={paper.size.height} exportSize={paper.size} testId="rollout-paper" />
        </div>
      )}
    </>
  );
}
