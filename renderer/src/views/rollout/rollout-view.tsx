import { useCallback, useEffect, useMemo, useState } from 'react';
import { usePersisted, oneOf } from '../../stores/persisted-state';
import type { EvaluationResult } from '../../../../main/api/contract';
import { useApp } from '../../stores/app-store';
import { useTraining } from '../../stores/training-store';
import { useRunDetail, useRunDetails } from '../../stores/runs-cache';
import { offersRollout, rolloutSpecOf } from '../../logic/rollout-spec';
import { RunPicker } from '../../components/run-picker';
import { RolloutControls, type Which } from './rollout-controls';
import { RolloutResult } from './rollout-result';
import { useRolloutEvaluation } from './use-rollout-evaluation';
import { RolloutDiagnostics } from './rollout-diagnostics';

type Field = NonNullable<EvaluationResult['resolutions'][number]['fields']>[number];

/**
 * Navier–Stokes rollouts: a validation trajectory's reference, prediction and |error| frames
 * stepped through with a player, the step-wise relL2 curve (mean ± 1 std over the validation
 * trajectories, the chosen one on top), and a paper-figure layout of chosen steps for export.
 */
export function RolloutView() {
  const setView = useApp((s) => s.setView);
  const runId = useTraining((s) => s.selectedRun);
  const run = useTraining((s) => s.runs.find((r) => r.id === s.selectedRun));
  const refreshRuns = useTraining((s) => s.refreshRuns);
  // Only runs that roll out are offered (their configs say so).
  const runs = useTraining((s) => s.runs);
  const details = useRunDetails(runs.map((r) => r.id));
  const offered = useMemo(() => runs.filter((r) => offersRollout(details[r.id]?.value?.config)), [runs, details]);
  const [checkpoint, setCheckpoint] = usePersisted<'best' | 'last'>('rollout.checkpoint', 'best', oneOf('best', 'last'));
  const [which, setWhich] = usePersisted<Which>('rollout.which', 'median', oneOf('best', 'median', 'worst', 'index'));
  // null: the run's T_out (the default once the config says it).
  const [stepsInput, setStepsInput] = useState<number | null>(null);
  const [indexInput, setIndexInput] = useState(0);
  const [step, setStep] = useState(1);
  const [figText, setFigText] = useState<string | null>(null);

  useEffect(() => {
    void refreshRuns();
  }, [refreshRuns]);

  // The run's config says whether it rolls out and for how many steps (the cache reads it again
  // once the run has started: the runner records the data's real T_in / T_out then).
  const detail = useRunDetail(runId);
  const runSpec = useMemo(() => (detail?.value ? rolloutSpecOf(detail.value.config) : null), [detail?.value]);
  const specError = detail?.error ?? null;
  const tOut = runSpec?.tOut ?? null;

  const { job, result, startError, start } = useRolloutEvaluation(runId);
  const res = result?.resolutions[0];
  const index = Number.isInteger(indexInput) && indexInput >= 0 ? indexInput : null;
  const sample: Field | undefined = res?.fields?.find((f) => (which === 'index' ? f.which === 'index' && f.index === index : f.which === which));
  const total = sample?.stepRelL2 ? Math.min(sample.reference.length, sample.prediction.length) : 0;
  const shown = Math.min(Math.max(1, step), Math.max(1, total));

  // Rollout steps to evaluate: the run's T_out unless the user typed fewer (the targets hold T_out frames).
  const steps = stepsInput ?? tOut ?? Number.NaN;
  const stepsError = Number.isNaN(steps)
    ? tOut === null ? null : 'enter the number of rollout steps'
    : !Number.isInteger(steps) || steps < 1 || (tOut !== null && steps > tOut) ? `a whole number from 1 to ${tOut ?? 1000}${tOut !== null ? ' (the run\'s T_out: the targets hold that many frames)' : ''}` : null;
  const indexError = which === 'index' && index === null ? 'a validation trajectory number (0, 1, …)' : null;

  const evaluate = async () => {
    if (!runId) return;
    const asked = which === 'index' ? index : null;
    const id = await start({ id: runId, checkpoint, split: 'val', fields: true, diagnostics: true, ...(Number.isNaN(steps) ? {} : { rolloutSteps: steps }), indices: asked !== null ? [asked] : [] });
    if (id) setStep(1);
  };
  const onStep = useCallback((k: number) => setStep(k), []);

  // The config says so, or an evaluation came back without per-step errors.
  const notRollout = runSpec?.autoregressive === false || (!!res?.fields?.length && !res.fields.some((f) => f.stepRelL2));

  return (
    <section aria-labelledby="rollout-title">
      <h1 id="rollout-title">Rollout</h1>
      <RunPicker offered={offered} offeredWhat="Navier–Stokes runs" />
      {specError && <p className="error-message" role="alert">Could not read this run's configuration: {specError}</p>}
      {run && notRollout && (
        <p className="card" data-testid="rollout-not-autoregressive">
          The Rollout view is for autoregressive (Navier–Stokes) runs, which predict frame after frame; this run maps inputs to outputs in one step.{' '}
          <button className="link" onClick={() => setView('fields')}>Show its fields in the Fields view</button>
        </p>
      )}
      {run && !notRollout && (
        <RolloutControls
          run={run}
          spec={runSpec}
          checkpoint={checkpoint}
          onCheckpoint={setCheckpoint}
          steps={steps}
          onSteps={setStepsInput}
          stepsError={stepsError}
          which={which}
          onWhich={setWhich}
          index={indexInput}
          onIndex={setIndexInput}
          indexError={indexError}
          onEvaluate={() => void evaluate()}
          job={job}
          evalError={startError}
          result={res ?? null}
          missingIndex={!!res && which === 'index' && !sample ? String(index ?? '') : null}
        />
      )}
      {sample?.stepRelL2 && total > 0 && res && result && (
        <RolloutResult sample={sample} res={res} result={result} shown={shown} total={total} onStep={onStep} figText={figText} onFigText={setFigText} />
      )}
      {sample?.stepRelL2 && total > 0 && res && <RolloutDiagnostics sample={sample} res={res} shown={shown} />}
    </section>
  );
}
