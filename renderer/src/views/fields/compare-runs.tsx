// Compare mode: the same validation sample from several runs trained on the same data, in one
// grid (reference row, then per run its prediction and |error|) on shared colour ranges.
import { useRunDetail } from '../../stores/runs-cache';
import { runTargetSymbol } from '../../queries/dataset-names';
import { useEffect, useMemo, useState } from 'react';
import { JobProgress } from '../../components/job-progress';
import type { RunSummary } from '../../../../main/api/contract';
import { Plot } from '../../plots/plot';
import { PlotExportBar } from '../../plots/export-bar';
import { themedLayout, themedTraces } from '../../plots/theme';
import { compareGrid, type CompareRow } from './compare-figures';
import type { RunData } from './run-data';
import { useEvaluation } from '../../stores/evaluations';
import { requestKey, requestParams, type EvalRequest } from './eval-request';
import { CompareDiagnostics, type CompareDiagnosticsRow } from './compare-diagnostics';

export function CompareRuns({ run, runs, data, mesh, index }: { run: RunSummary; runs: RunSummary[]; data: Record<string, RunData>; mesh: boolean; index: string }) {
  const evals = useEvaluation();
  const key = data[run.id]?.key;
  // Runs on the same data with a checkpoint to evaluate.
  const comparable = runs.filter((r) => r.bestEpoch != null && key !== undefined && data[r.id]?.key === key);
  const [picked, setPicked] = useState<string[]>([run.id]);
  const [asked, setAsked] = useState<EvalRequest[]>([]);
  useEffect(() => {
    setPicked([run.id]);
    setAsked([]);
  }, [run.id]);
  const validIndex = /^\d+$/.test(index) ? Number(index) : null;

  const compare = () => {
    if (validIndex === null) return;
    const reqs = comparable.filter((r) => picked.includes(r.id)).map((r) => ({ runId: r.id, resolutions: [], index: validIndex }));
    setAsked(reqs);
    for (const r of reqs) void evals.start(requestKey(r), requestParams(r));
  };

  const target = runTargetSymbol(useRunDetail(run.id)?.value?.config);
  const states = asked.map((r) => ({ req: r, st: evals.state(requestKey(r)), run: runs.find((x) => x.id === r.runId) }));
  const busy = states.some((s) => s.st.busy);
  const ready = states.length > 0 && states.every((s) => s.st.result);
  const diagRows = useMemo(() => {
    if (!ready) return [];
    const out: CompareDiagnosticsRow[] = [];
    for (const s of states) {
      const res = s.st.result!.resolutions[0]!;
      const f = res.fields?.find((x) => x.which === 'index' && x.index === s.req.index);
      if (f) out.push({ name: s.run?.name ?? s.req.runId, sample: f, res });
    }
    return out;
    // as below: the jobs' ids and states stand for the results
  }, [ready, states.map((s) => s.st.job?.id + String(s.st.job?.state)).join(' ')]);
  const grid = useMemo(() => {
    if (!ready) return null;
    const rows: CompareRow[] = [];
    let g: number[] = [];
    for (const s of states) {
      const res = s.st.result!.resolutions[0]!;
      const f = res.fields?.find((x) => x.which === 'index' && x.index === s.req.index);
      if (!f) continue;
      if (g.length === 0) g = res.grid;
      else if (res.grid.join('x') !== g.join('x')) continue;
      rows.push({ runId: s.req.runId, name: s.run?.name ?? s.req.runId, sample: f });
    }
    return compareGrid(rows, g, mesh, target);
    // The states array is rebuilt each render; the jobs' ids and states are what matters.
  }, [ready, states.map((s) => s.st.job?.id + String(s.st.job?.state)).join(' '), mesh, target]);

  if (key === undefined) return <p className="muted">Reading the run's configuration…</p>;
  return (
    <div data-testid="compare">
      <fieldset className="row wrap">
        <legend>Runs on the same data ({data[run.id]!.label}) to compare</legend>
        {comparable.length === 0 && <span className="muted">No run with a checkpoint on this data yet.</span>}
        {comparable.map((r) => (
          <label key={r.id}>
            <input type="checkbox" checked={picked.includes(r.id)} onChange={(e) => setPicked((p) => (e.target.checked ? [...p, r.id] : p.filter((x) => x !== r.id)))} data-testid={`compare-pick-${r.id}`} /> {r.name}
          </label>
        ))}
      </fieldset>
      <div className="row wrap">
        <button onClick={compare} disabled={busy || validIndex === null || picked.length === 0} data-testid="compare-evaluate">
          Compare validation sample {validIndex ?? '–'}
        </button>
        {busy && <span className="muted">evaluating {states.filter((s) => s.st.busy).length} of {states.length} runs…</span>}
        {states.map((s) => <JobProgress key={s.req.runId} job={s.st.job} label={`Evaluation of ${s.run?.name ?? s.req.runId}`} />)}
        {states.filter((s) => s.st.error).map((s) => (
          <span key={s.req.runId} className="error-message" role="alert">{s.run?.name ?? s.req.runId}: {s.st.error}</span>
        ))}
      </div>
      {grid && (
        <>
          <p className="muted small" data-testid="compare-info">
            Sample {asked[0]?.index}: one colour range for the reference and all predictions ({grid.fieldRange.map((v) => v.toPrecision(4)).join(' to ')}), one for all errors ({grid.errorRange.map((v) => v.toPrecision(4)).join(' to ')}).
          </p>
          {grid.paper && (
            <div data-testid="compare-figure-export">
              <span className="muted small">The whole grid as one figure:</span>
              <PlotExportBar title={`Fields compare, sample ${asked[0]?.index ?? ''}`} preferredSize={grid.paper.size} figure={() => ({ data: themedTraces('light', grid.paper!.data), layout: themedLayout('light', grid.paper!.layout) })} />
            </div>
          )}
          <div className="fields-grid" data-testid="compare-grid">
            <Plot title="Reference field" data={grid.reference.data} layout={grid.reference.layout} height={260} testId="compare-reference" />
            <div className="muted small">relL2 (normalized) of this sample: {grid.rows.map((r) => `${r.name} ${r.relL2.toPrecision(4)}`).join('; ')}</div>
            {grid.rows.map((r, i) => (
              <div key={r.runId} className="contents">
                <Plot title={`${r.name}: predicted field`} data={r.prediction.data} layout={r.prediction.layout} height={260} testId={`compare-prediction-${i}`} />
                <Plot title={`${r.name}: absolute error field`} data={r.error.data} layout={r.error.layout} height={260} testId={`compare-error-${i}`} />
              </div>
            ))}
          </div>
          <CompareDiagnostics rows={diagRows} index={asked[0]?.index ?? 0} />
        </>
      )}
    </div>
  );
}
