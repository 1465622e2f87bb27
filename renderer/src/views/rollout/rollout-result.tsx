// A rollout evaluation's chosen trajectory: the player, the reference / prediction / |error|
// frames of the shown step, the filmstrip around it, the step-wise relL2 curve, and the paper
// figure of chosen steps.
import { useMemo } from 'react';
import type { EvaluationResult } from '../../../../main/api/contract';
import { TARGET_SYMBOLS } from '../../../../main/api/dataset-name';
import { Plot } from '../../plots/plot';
import { fieldAxes, heatmapTrace } from '../../plots/traces';
import { sharedRange } from '../../plots/colorscales';
import { highlightColumn, rolloutPaperFigure, rolloutPaperSize } from '../../plots/rollout-paper-figure';
import { absError } from '../../plots/abs-error';
import { currentStepShape, stepErrorTraces } from '../../plots/step-error-traces';
import { stepWindow } from '../../plots/rollout-steps';
import { RolloutPlayer } from '../../components/rollout-player';
import { RolloutPaper } from './rollout-paper';
import { useRelL2Headline } from '../../stores/rell2-headline';
import { headlineText } from '../../logic/rell2-headline';

type Resolution = EvaluationResult['resolutions'][number];
export type Field = NonNullable<Resolution['fields']>[number];

export interface RolloutResultProps {
  sample: Field;
  res: Resolution;
  result: EvaluationResult;
  /** 1-based step shown, of `total`. */
  shown: number;
  total: number;
  onStep(k: number): void;
  figText: string | null;
  onFigText(t: string | null): void;
}

export function RolloutResult({ sample, res, result, shown, total, onStep, figText, onFigText }: RolloutResultProps) {
  const grid = res.grid;
  // Colour ranges over the whole rollout, so frames stay comparable while playing.
  const headline = useRelL2Headline();
  const ranges = useMemo(() => {
    const refs = sample.reference.slice(0, total);
    const preds = sample.prediction.slice(0, total);
    const errMax = Math.max(...refs.map((r, t) => sharedRange(absError(r, preds[t]!))[1]));
    return { field: sharedRange(...refs, ...preds), error: [0, errMax > 0 ? errMax : 1] as [number, number] };
  }, [sample, total]);

  const frames = useMemo(() => {
    if (grid.length !== 2) return null;
    const [nx, ny] = grid as [number, number];
    const ref = sample.reference[shown - 1]!;
    const pred = sample.prediction[shown - 1]!;
    const axes = { ...fieldAxes('domain'), margin: { l: 50, r: 10, t: 30, b: 45 } };
    return {
      reference: { data: [heatmapTrace({ values: ref, nx, ny, range: ranges.field, colorbarTitle: TARGET_SYMBOLS['navier-stokes'] })], layout: { ...axes, title: `Reference, t = ${shown}` } },
      prediction: { data: [heatmapTrace({ values: pred, nx, ny, range: ranges.field, colorbarTitle: TARGET_SYMBOLS['navier-stokes'] })], layout: { ...axes, title: `Prediction, t = ${shown}` } },
      error: { data: [heatmapTrace({ values: absError(ref, pred), nx, ny, scale: 'cividis', range: ranges.error, colorbarTitle: '|error|' })], layout: { ...axes, title: `|Error|, t = ${shown}` } },
    };
  }, [sample, ranges, grid, shown]);

  const curve = useMemo(() => {
    const steps = res.metrics.steps;
    if (!steps || !sample.stepRelL2) return null;
    const data = stepErrorTraces({ mean: steps.mean, std: steps.std, trajectory: sample.stepRelL2, trajectoryName: `trajectory ${sample.index} (${sample.which})`, current: shown, n: res.n });
    const layout = {
      xaxis: { title: 'rollout step', dtick: 1, range: [0.7, steps.mean.length + 0.3] },
      yaxis: { title: 'relL2 (decoded)', rangemode: 'tozero' },
      shapes: [currentStepShape(shown)],
      // Legend at the right: below the plot it wrapped onto the x-axis title in narrow layouts.
      margin: { l: 60, r: 20, t: 30, b: 50 },
      title: res.n === 1 ? 'Step-wise relL2 of the 1 validation trajectory' : `Step-wise relL2 over ${res.n} validation trajectories`,
    };
    return { data, layout };
  }, [res, sample, shown]);

  // The filmstrip: every step (a 10-step window around the shown one for longer rollouts), outlined.
  const windowSteps = stepWindow(total, shown);
  const windowKey = windowSteps.join(',');
  const strip = useMemo(() => {
    if (windowSteps.length === 0 || grid.length !== 2) return null;
    const tile = windowSteps.length <= 6 ? 96 : 80;
    try {
      return { figure: rolloutPaperFigure({ reference: sample.reference, prediction: sample.prediction, grid }, windowSteps, { tile }), size: rolloutPaperSize(windowSteps.length, tile), steps: windowSteps };
    } catch {
      return null; // the paper figure below reports the same problem in words
    }
    // windowSteps is rebuilt each render; windowKey is its stable value.
  }, [sample, grid, windowKey]);
  const stripLayout = useMemo(() => (strip ? highlightColumn(strip.figure.layout, strip.steps, shown) : null), [strip, shown]);

  return (
    <>
      <p data-testid="rollout-info">
        Validation trajectory {sample.index} ({sample.which === 'index' ? 'chosen by index' : sample.which}), relL2 <span data-testid="rollout-headline">{headlineText(sample, headline)}</span> over {total} step{total === 1 ? '' : 's'};{' '}
        {result.checkpoint} checkpoint, epoch {result.epoch}; all {res.n} trajectories: {headlineText(res.metrics, headline, true)}. The step-wise curve is on decoded fields.
      </p>
      <RolloutPlayer step={shown} total={total} onStep={onStep} />
      {frames && (
        <div className="rollout-frames">
          <Plot title="Rollout reference frame" data={frames.reference.data} layout={frames.reference.layout} height={270} exportable={false} testId="rollout-reference" />
          <Plot title="Rollout predicted frame" data={frames.prediction.data} layout={frames.prediction.layout} height={270} exportable={false} testId="rollout-prediction" />
          <Plot title="Rollout absolute error frame" data={frames.error.data} layout={frames.error.layout} height={270} exportable={false} testId="rollout-error" />
        </div>
      )}
      {grid.length !== 2 && <p className="muted">Frames are drawn for 2D grids; this run's grid is [{grid.join(', ')}].</p>}
      {/* The filmstrip and the error curve side by side when they fit (a short rollout), else stacked. */}
      <div className="rollout-lower">
        {strip && (
          <div className="rollout-strip" style={{ flexBasis: strip.size.width, maxWidth: strip.size.width }}>
            <Plot title={`Rollout rows, steps ${strip.steps[0]} to ${strip.steps[strip.steps.length - 1]}`} data={strip.figure.data} layout={stripLayout!} height={strip.size.height} exportable={false} testId="rollout-strip" />
          </div>
        )}
        {curve && (
          <div className="rollout-curve">
            <Plot title="Rollout step-wise relL2" data={curve.data} layout={curve.layout} height={strip ? Math.max(300, strip.size.height - 40) : 300} testId="rollout-curve" />
          </div>
        )}
      </div>
      <RolloutPaper sample={sample} grid={grid} total={total} figText={figText} onFigText={onFigText} />
    </>
  );
}
