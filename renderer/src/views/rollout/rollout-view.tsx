import { useCallback, useEffect, useId, useMemo, useState } from 'react';
import { JobProgress } from '../../components/job-progress';
import { usePersisted, oneOf } from '../../store/persisted-state';
import type { EvaluationResult } from '../../../../main/api/contract';
import { useApp } from '../../store/app-store';
import { useTraining } from '../../store/training-store';
import { rolloutSpecOf, type RolloutSpec } from '../../store/rollout-spec';
import { Plot } from '../../plots/plot';
import { fieldAxes, heatmapTrace } from '../../plots/traces';
import { sharedRange } from '../../plots/colorscales';
import { highlightColumn, rolloutPaperFigure, rolloutPaperSize } from '../../plots/rollout-paper-figure';
import { absError } from '../../plots/abs-error';
import { currentStepShape, stepErrorTraces } from '../../plots/step-error-traces';
import { evenlySpacedSteps, parseSteps, stepWindow } from '../../plots/rollout-steps';
import { RunPicker } from '../../components/run-picker';
import { RolloutPlayer } from '../../components/rollout-player';

type Which = 'best' | 'median' | 'worst' | 'index';
type Field = NonNullable<EvaluationResult['resolutions'][number]['fields']>[number];

const message = (e: unknown) => (e instanceof Error ? e.message : String(e));

/**
 * Navier–Stokes rollouts: a validation trajectory's reference, prediction and |error| frames
 * stepped through with a player, the step-wise relL2 curve (mean ± 1 std over the validation
 * trajectories, the chosen one on top), and a paper-figure layout of chosen steps for export.
 */
export function RolloutView() {
  const api = useApp((s) => s.api);
  const jobs = useApp((s) => s.jobs);
  const setView = useApp((s) => s.setView);
  const runId = useTraining((s) => s.selectedRun);
  const run = useTraining((s) => s.runs.find((r) => r.id === s.selectedRun));
  const refreshRuns = useTraining((s) => s.refreshRuns);
  const [spec, setSpec] = useState<{ runId: string; spec: RolloutSpec } | { runId: string; error: string } | null>(null);
  const [evals, setEvals] = useState<Record<string, string>>({});
  const [evalError, setEvalError] = useState<string | null>(null);
  const [checkpoint, setCheckpoint] = usePersisted<'best' | 'last'>('rollout.checkpoint', 'best', oneOf('best', 'last'));
  const [stepsText, setStepsText] = useState<string | null>(null);
  const [which, setWhich] = usePersisted<Which>('rollout.which', 'median', oneOf('best', 'median', 'worst', 'index'));
  const [indexText, setIndexText] = useState('0');
  const [step, setStep] = useState(1);
  const [figText, setFigText] = useState<string | null>(null);
  const id = useId();

  useEffect(() => {
    void refreshRuns();
  }, [refreshRuns]);

  // The run's config says whether it rolls out and for how many steps (re-read once it has started:
  // the runner records the data's real T_in / T_out on first start).
  const started = (run?.epochsDone ?? 0) > 0 || run?.state === 'running';
  useEffect(() => {
    if (!api || !runId) return;
    let live = true;
    api.call('runs.get', { id: runId }).then(
      (r) => live && setSpec({ runId, spec: rolloutSpecOf(r.config) }),
      (e) => live && setSpec({ runId, error: message(e) }),
    );
    return () => {
      live = false;
    };
  }, [api, runId, started]);

  const runSpec = spec && spec.runId === runId && 'spec' in spec ? spec.spec : null;
  const specError = spec && spec.runId === runId && 'error' in spec ? spec.error : null;
  const tOut = runSpec?.tOut ?? null;

  const ev = runId ? evals[runId] : undefined;
  // Back in the view (it remounts): the latest finished rollout evaluation of this run, whoever asked for it.
  const earlier = useMemo(() => {
    if (!runId) return undefined;
    const done = Object.values(jobs).filter((j) => {
      const r = j.kind === 'evaluate' && j.state === 'done' ? (j.result as EvaluationResult | undefined) : undefined;
      return r?.runId === runId && !!r.resolutions[0]?.fields?.some((f) => f.stepRelL2);
    });
    return done.sort((a, b) => (a.endedAt ?? '').localeCompare(b.endedAt ?? '')).pop();
  }, [jobs, runId]);
  // `job`: the evaluation last asked for here (its progress and errors); the frames come from the
  // latest finished one, so a running or failed new evaluation leaves the previous one on screen.
  const job = ev ? jobs[ev] : earlier;
  const shownJob = job?.state === 'done' ? job : earlier;
  const result = shownJob ? (shownJob.result as EvaluationResult) : null;
  const res = result?.resolutions[0];
  const index = /^\d+$/.test(indexText.trim()) ? Number(indexText.trim()) : null;
  const sample: Field | undefined = res?.fields?.find((f) => (which === 'index' ? f.which === 'index' && f.index === index : f.which === which));
  const rolloutFields = !!sample?.stepRelL2;
  const total = sample && rolloutFields ? Math.min(sample.reference.length, sample.prediction.length) : 0;
  const shown = Math.min(Math.max(1, step), Math.max(1, total));

  // Rollout steps to evaluate: the run's T_out unless the user typed fewer (the targets hold T_out frames).
  const stepsValue = stepsText ?? (tOut !== null ? String(tOut) : '');
  const stepsNum = Number(stepsValue);
  const stepsError = stepsValue.trim() === '' ? (tOut === null ? null : 'enter the number of rollout steps') : !Number.isInteger(stepsNum) || stepsNum < 1 || (tOut !== null && stepsNum > tOut) ? `a whole number from 1 to ${tOut ?? 1000}${tOut !== null ? ' (the run\'s T_out: the targets hold that many frames)' : ''}` : null;
  const indexError = which === 'index' && index === null ? 'a validation trajectory number (0, 1, …)' : null;
  const busy = job?.state === 'running' || job?.state === 'queued';
  const hasCheckpoint = checkpoint === 'best' ? run?.bestEpoch != null : (run?.epochsDone ?? 0) > 0;

  const evaluate = async () => {
    if (!api || !runId) return;
    setEvalError(null);
    try {
      const asked = which === 'index' ? index : null;
      const j = await api.call('runs.evaluate', {
        id: runId,
        checkpoint,
        split: 'val',
        fields: true,
        ...(stepsValue.trim() !== '' ? { rolloutSteps: stepsNum } : {}),
        indices: asked !== null ? [asked] : [],
      });
      setEvals((m) => ({ ...m, [runId]: j.id }));
      setStep(1);
    } catch (e) {
      setEvalError(message(e));
    }
  };

  const onStep = useCallback((k: number) => setStep(k), []);

  // Colour ranges over the whole rollout, so frames stay comparable while playing.
  const ranges = useMemo(() => {
    if (!sample || total === 0) return null;
    const refs = sample.reference.slice(0, total);
    const preds = sample.prediction.slice(0, total);
    const errMax = Math.max(...refs.map((r, t) => sharedRange(absError(r, preds[t]!))[1]));
    return { field: sharedRange(...refs, ...preds), error: [0, errMax > 0 ? errMax : 1] as [number, number] };
  }, [sample, total]);

  const grid = res?.grid ?? [];
  const frames = useMemo(() => {
    if (!sample || !ranges || grid.length !== 2) return null;
    const [nx, ny] = grid as [number, number];
    const ref = sample.reference[shown - 1]!;
    const pred = sample.prediction[shown - 1]!;
    const axes = { ...fieldAxes('domain'), margin: { l: 50, r: 10, t: 30, b: 45 } };
    return {
      reference: { data: [heatmapTrace({ values: ref, nx, ny, range: ranges.field, colorbarTitle: 'u' })], layout: { ...axes, title: `Reference, t = ${shown}` } },
      prediction: { data: [heatmapTrace({ values: pred, nx, ny, range: ranges.field, colorbarTitle: 'u' })], layout: { ...axes, title: `Prediction, t = ${shown}` } },
      error: { data: [heatmapTrace({ values: absError(ref, pred), nx, ny, scale: 'cividis', range: ranges.error, colorbarTitle: '|error|' })], layout: { ...axes, title: `|Error|, t = ${shown}` } },
    };
  }, [sample, ranges, grid, shown]);

  const curve = useMemo(() => {
    const steps = res?.metrics.steps;
    if (!steps || !sample?.stepRelL2) return null;
    const data = stepErrorTraces({ mean: steps.mean, std: steps.std, trajectory: sample.stepRelL2, trajectoryName: `trajectory ${sample.index} (${sample.which})`, current: shown, n: res!.n });
    const layout = {
      xaxis: { title: 'rollout step', dtick: 1, range: [0.7, steps.mean.length + 0.3] },
      yaxis: { title: 'relL2 (decoded)', rangemode: 'tozero' },
      shapes: [currentStepShape(shown)],
      // Legend at the right: below the plot it wrapped onto the x-axis title in narrow layouts.
      margin: { l: 60, r: 20, t: 30, b: 50 },
      title: res!.n === 1 ? 'Step-wise relL2 of the 1 validation trajectory' : `Step-wise relL2 over ${res!.n} validation trajectories`,
    };
    return { data, layout };
  }, [res, sample, shown]);

  // The filmstrip: every step (a 10-step window around the shown one for longer rollouts), outlined.
  const windowSteps = total > 0 ? stepWindow(total, shown) : [];
  const windowKey = windowSteps.join(',');
  const strip = useMemo(() => {
    if (!sample || windowSteps.length === 0 || grid.length !== 2) return null;
    const tile = windowSteps.length <= 6 ? 96 : 80;
    try {
      return { figure: rolloutPaperFigure({ reference: sample.reference, prediction: sample.prediction, grid }, windowSteps, { tile }), size: rolloutPaperSize(windowSteps.length, tile), steps: windowSteps };
    } catch {
      return null; // the paper figure below reports the same problem in words
    }
    // windowSteps is rebuilt each render; windowKey is its stable value.
  }, [sample, grid, windowKey]);
  const stripLayout = useMemo(() => (strip ? highlightColumn(strip.figure.layout, strip.steps, shown) : null), [strip, shown]);

  const figDefault = total > 0 ? evenlySpacedSteps(total, 5).join(', ') : '';
  const figValue = figText ?? figDefault;
  const figSteps = total > 0 ? parseSteps(figValue, total) : null;
  const paper = useMemo(() => {
    if (!sample || total === 0 || grid.length !== 2 || !figSteps || 'error' in figSteps) return null;
    try {
      return { figure: rolloutPaperFigure({ reference: sample.reference, prediction: sample.prediction, grid }, figSteps.steps), size: rolloutPaperSize(figSteps.steps.length), error: null };
    } catch (e) {
      return { figure: null, size: null, error: message(e) };
    }
    // figSteps is rebuilt each render; its text (figValue) is the stable key.
  }, [sample, total, grid, figValue]);

  // The config says so, or an evaluation came back without per-step errors.
  const notRollout = runSpec?.autoregressive === false || (!!res?.fields?.length && !res.fields.some((f) => f.stepRelL2));

  return (
    <section aria-labelledby="rollout-title">
      <h1 id="rollout-title">Rollout</h1>
      <RunPicker />
      {specError && <p className="error-message" role="alert">Could not read this run's configuration: {specError}</p>}
      {run && notRollout && (
        <p className="card" data-testid="rollout-not-autoregressive">
          The Rollout view is for autoregressive (Navier–Stokes) runs, which predict frame after frame; this run maps inputs to outputs in one step.{' '}
          <button className="link" onClick={() => setView('fields')}>Show its fields in the Fields view</button>
        </p>
      )}
      {run && !notRollout && (
        <div className="card rollout-controls">
          <div className="row wrap">
            <label htmlFor={`${id}-ck`}>Checkpoint</label>
            <select id={`${id}-ck`} value={checkpoint} onChange={(e) => setCheckpoint(e.target.value as 'best' | 'last')} data-testid="rollout-checkpoint">
              <option value="best">best (lowest validation relL2)</option>
              <option value="last">last</option>
            </select>
            <label htmlFor={`${id}-steps`}>Rollout steps</label>
            <input id={`${id}-steps`} type="number" min={1} max={tOut ?? 1000} step={1} value={stepsValue} onChange={(e) => setStepsText(e.target.value)} aria-invalid={stepsError ? true : undefined} aria-describedby={stepsError ? `${id}-steps-msg` : undefined} data-testid="rollout-steps" />
            {runSpec?.tIn != null && <span className="muted small">after T_in = {runSpec.tIn} history frames{tOut !== null ? `; T_out = ${tOut}` : ''}</span>}
            <label htmlFor={`${id}-which`}>Trajectory</label>
            <select id={`${id}-which`} value={which} onChange={(e) => setWhich(e.target.value as Which)} data-testid="rollout-which">
              <option value="best">best (lowest relL2)</option>
              <option value="median">median</option>
              <option value="worst">worst (highest relL2)</option>
              <option value="index">by index…</option>
            </select>
            {which === 'index' && (
              <>
                <label htmlFor={`${id}-idx`}>Index</label>
                <input id={`${id}-idx`} type="number" min={0} step={1} value={indexText} onChange={(e) => setIndexText(e.target.value)} aria-invalid={indexError ? true : undefined} data-testid="rollout-index" />
              </>
            )}
            <button onClick={evaluate} disabled={busy || !hasCheckpoint || !!stepsError || !!indexError || runSpec?.autoregressive === false} data-testid="rollout-evaluate">
              Evaluate rollout on validation
            </button>
          </div>
          {stepsError && <p className="error-message small" id={`${id}-steps-msg`}>Rollout steps: {stepsError}</p>}
          {indexError && <p className="error-message small">Index: {indexError}</p>}
          {!hasCheckpoint && <p className="muted">This run has no {checkpoint} checkpoint yet (no finished epoch).</p>}
          {runSpec?.autoregressive === null && <p className="muted">Whether this run rolls out is known once it has started (its dataset is read then).</p>}
          <p><JobProgress job={job} label="Evaluation" {...(job ? { testId: `rollout-job-${job.state}` } : {})} /></p>
          {job?.state === 'failed' && <p className="error-message" role="alert">Evaluation failed: {job.error}</p>}
          {evalError && <p className="error-message" role="alert">Could not evaluate: {evalError}</p>}
          {res && which === 'index' && !sample && <p className="warn">Trajectory {indexText} is not in this evaluation: press Evaluate to compute it.</p>}
          {res && !res.metrics.steps && <p className="muted">This evaluation has no per-step errors (not a rollout).</p>}
        </div>
      )}
      {sample && rolloutFields && total > 0 && (
        <>
          <p data-testid="rollout-info">
            Validation trajectory {sample.index} ({sample.which === 'index' ? 'chosen by index' : sample.which}), relL2 {sample.relL2Decoded.toPrecision(4)} (decoded) over {total} step{total === 1 ? '' : 's'};{' '}
            {result!.checkpoint} checkpoint, epoch {result!.epoch}; all {res!.n} trajectories: {res!.metrics.relL2Decoded.toPrecision(4)}.
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
          <h2>Paper figure</h2>
          <div className="row wrap">
            <label htmlFor={`${id}-fig`}>Steps shown</label>
            <input id={`${id}-fig`} type="text" value={figValue} onChange={(e) => setFigText(e.target.value)} aria-invalid={figSteps && 'error' in figSteps ? true : undefined} aria-describedby={`${id}-fig-msg`} data-testid="rollout-figure-steps" />
            <button onClick={() => setFigText(null)}>Evenly spaced</button>
            <span id={`${id}-fig-msg`} className={figSteps && 'error' in figSteps ? 'error-message small' : 'muted small'}>
              {figSteps && 'error' in figSteps ? `Steps shown: ${figSteps.error}` : `1 to ${total}, separated by commas`}
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
      )}
    </section>
  );
}
