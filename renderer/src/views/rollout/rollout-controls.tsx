// The Rollout view's controls: checkpoint, rollout steps, which trajectory, Evaluate, and the
// evaluation's progress and errors.
import { useId } from 'react';
import type { EvaluationResult, JobSummary, RunSummary } from '../../../../main/api/contract';
import type { RolloutSpec } from '../../logic/rollout-spec';
import { JobProgress } from '../../components/job-progress';
import { NumberField } from '../../components/number-field';

export type Which = 'best' | 'median' | 'worst' | 'index';

export interface RolloutControlsProps {
  run: RunSummary;
  spec: RolloutSpec | null;
  checkpoint: 'best' | 'last';
  onCheckpoint(c: 'best' | 'last'): void;
  steps: number;
  onSteps(v: number): void;
  stepsError: string | null;
  which: Which;
  onWhich(w: Which): void;
  index: number;
  onIndex(v: number): void;
  indexError: string | null;
  onEvaluate(): void;
  job: JobSummary | undefined;
  evalError: string | null;
  result: EvaluationResult['resolutions'][number] | null;
  /** The trajectory asked for by index when this evaluation lacks it. */
  missingIndex: string | null;
}

export function RolloutControls(p: RolloutControlsProps) {
  const id = useId();
  const { run, spec, checkpoint, job, result: res } = p;
  const tOut = spec?.tOut ?? null;
  const busy = job?.state === 'running' || job?.state === 'queued';
  const hasCheckpoint = checkpoint === 'best' ? run.bestEpoch != null : run.epochsDone > 0;
  return (
    <div className="card rollout-controls">
      <div className="row wrap">
        <label htmlFor={`${id}-ck`}>Checkpoint</label>
        <select id={`${id}-ck`} value={checkpoint} onChange={(e) => p.onCheckpoint(e.target.value as 'best' | 'last')} data-testid="rollout-checkpoint">
          <option value="best">best (lowest validation relL2)</option>
          <option value="last">last</option>
        </select>
        <NumberField label="Rollout steps" inline value={p.steps} onChange={p.onSteps} min={1} max={tOut ?? 1000} error={p.stepsError ? `Rollout steps: ${p.stepsError}` : null} testId="rollout-steps" />
        {spec?.tIn != null && <span className="muted small">after T_in = {spec.tIn} history frames{tOut !== null ? `; T_out = ${tOut}` : ''}</span>}
        <label htmlFor={`${id}-which`}>Trajectory</label>
        <select id={`${id}-which`} value={p.which} onChange={(e) => p.onWhich(e.target.value as Which)} data-testid="rollout-which">
          <option value="best">best (lowest relL2)</option>
          <option value="median">median</option>
          <option value="worst">worst (highest relL2)</option>
          <option value="index">by index…</option>
        </select>
        {p.which === 'index' && <NumberField label="Index" inline value={p.index} onChange={p.onIndex} min={0} error={p.indexError ? `Index: ${p.indexError}` : null} testId="rollout-index" />}
        <button onClick={p.onEvaluate} disabled={busy || !hasCheckpoint || !!p.stepsError || !!p.indexError || spec?.autoregressive === false} data-testid="rollout-evaluate">
          Evaluate rollout on validation
        </button>
      </div>
      {!hasCheckpoint && <p className="muted">This run has no {checkpoint} checkpoint yet (no finished epoch).</p>}
      {spec?.autoregressive === null && <p className="muted">Whether this run rolls out is known once it has started (its dataset is read then).</p>}
      <p><JobProgress job={job} label="Evaluation" {...(job ? { testId: `rollout-job-${job.state}` } : {})} /></p>
      {job?.state === 'failed' && <p className="error-message" role="alert">Evaluation failed: {job.error}</p>}
      {p.evalError && <p className="error-message" role="alert">Could not evaluate: {p.evalError}</p>}
      {p.missingIndex !== null && <p className="warn">Trajectory {p.missingIndex} is not in this evaluation: press Evaluate to compute it.</p>}
      {res && !res.metrics.steps && <p className="muted">This evaluation has no per-step errors (not a rollout).</p>}
    </div>
  );
}
