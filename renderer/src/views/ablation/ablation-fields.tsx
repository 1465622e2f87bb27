// The ablation's error fields for the same samples (the paper's Fig. 3): Evaluate asks the store
// to evaluate the full model and then every variant on its best / median / worst samples; the
// grid draws the reference row and each variant's |prediction − reference|.
import { useMemo } from 'react';
import { useApp } from '../../stores/app-store';
import { useAblation } from '../../stores/ablation-store';
import { evalState } from '../../stores/evaluations';
import { Plot } from '../../plots/plot';
import { ablationFigure } from '../../plots/ablation-figure';
import type { VariantKey } from '../../logic/ablation-plan';
import { evaluationTargets, fieldsFigureInput, firstDone, type AblationRow } from '../../logic/ablation-view-data';

export function AblationFields({ ablationKey: key, rows }: { ablationKey: string; rows: AblationRow[] }) {
  const jobs = useApp((s) => s.jobs);
  const mine = useAblation((s) => s.evals[key] ?? null);
  const evalError = useAblation((s) => s.errors[key] ?? null);
  const start = useAblation((s) => s.evaluate);
  const evalReady = rows.length > 0 && rows.every((r) => !r.config || firstDone(r));
  const full = evalState(mine ? jobs[mine.full] : undefined);
  const fullResult = full.result;

  const evaluate = () => {
    const t = evaluationTargets(rows);
    if (t) void start(key, t.full, t.others, t.models);
  };

  const figure = useMemo(() => {
    if (!mine || !fullResult || mine.samples.length === 0) return null;
    const resultOf = (variant: VariantKey) => {
      const jobId = mine.others[variant];
      return evalState(jobId ? jobs[jobId] : undefined).result;
    };
    return ablationFigure(fieldsFigureInput({ rows, samples: mine.samples, full: fullResult, resultOf }));
  }, [mine, fullResult, jobs, rows]);
  const grid1D = fullResult?.resolutions[0]?.grid.length === 1;
  // About 130 px per row of panels: five rows fit a 768 px screen with a little scrolling.
  const figHeight = 130 * (1 + rows.filter((r) => r.config).length) + 40;
  const width = figure ? figure.widthFor(figHeight) : Number.NaN;
  const others = mine ? Object.values(mine.others).map((id) => evalState(jobs[id!])) : [];
  const failed = [full, ...others].find((s) => s.job?.state === 'failed')?.job;
  // A job the engine no longer lists (it restarted) or one that ended lets the user evaluate again.
  const pending = !!mine && (full.busy || (!!fullResult && !mine.othersAsked) || others.some((s) => s.busy));

  return (
    <>
      <h2>Error fields for the same samples</h2>
      <div className="row wrap">
        <button onClick={evaluate} disabled={!evalReady || pending} data-testid="ablation-fields-evaluate">
          Evaluate error fields
        </button>
        {!evalReady && <span className="muted">Every variant needs a finished run first.</span>}
        {pending && <span role="status" data-testid="ablation-fields-pending">evaluating…</span>}
        {failed && <span className="error-message" role="alert">Evaluation failed: {failed.error}</span>}
        {evalError && <span className="error-message" role="alert">{evalError}</span>}
      </div>
      {figure && (
        <>
          <p className="muted small">
            Rows: the reference, then |prediction − reference| of each variant's first finished seed; columns: the full model's best, median and worst validation samples. All error panels share one {grid1D ? 'y range' : 'cividis scale'} (0 to {figure.errorRange[1].toPrecision(3)}).
          </p>
          <div style={{ maxWidth: Number.isFinite(width) ? width : undefined }}>
            <Plot title="Ablation error fields" data={figure.data} layout={figure.layout} height={figHeight} {...(Number.isFinite(width) ? { exportSize: { width, height: figHeight } } : {})} testId="ablation-fields" />
          </div>
        </>
      )}
    </>
  );
}
