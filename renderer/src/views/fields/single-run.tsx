// One run: evaluate its best checkpoint (with any extra resolutions, solved there by the generator
// or resampled, and any sample index), pick the sample and the resolution to view, the linked
// panels with their data's provenance, and the resolution sweep table.
import { useEffect, useId, useMemo, useState } from 'react';
import { JobProgress } from '../../components/job-progress';
import { usePersisted, oneOf } from '../../stores/persisted-state';
import type { RunSummary } from '../../../../main/api/contract';
import { FieldLines, FieldPanels } from './field-panels';
import { samplePanels, withCaption } from './field-figures';
import { useApp } from '../../stores/app-store';
import { TransferSourcePicker } from './transfer-source-picker';
import { effectiveSource, provenanceCaption, solvedChoice } from './transfer-choice';
import { useRunDetail } from '../../stores/runs-cache';
import { runTargetSymbol } from '../../queries/dataset-names';
import { ResolutionPicker } from './resolution-picker';
import { extraResolutions } from './sweep-table';
import { ResolutionSweep } from './resolution-sweep';
import { SamplePicker, type Which } from './sample-picker';
import { useEvaluation } from '../../stores/evaluations';
import { isEvalRequest, requestKey, requestParams, type EvalRequest } from './eval-request';
import { useRelL2Headline } from '../../stores/rell2-headline';
import { headlineText } from '../../logic/rell2-headline';
import { FieldDiagnostics } from './field-diagnostics';
import { TrustPanel } from '../../components/trust-panel';

export function SingleRun({ run, mesh, index, onIndex }: { run: RunSummary; mesh: boolean; index: string; onIndex(v: string): void }) {
  const evals = useEvaluation();
  const state = (r: EvalRequest | null) => evals.state(r ? requestKey(r) : null);
  const [which, setWhich] = usePersisted<Which>('fields.which', 'median', oneOf('best', 'median', 'worst', 'index'));
  const [checked, setChecked] = useState<number[]>([]);
  const [resText, setResText] = useState('');
  const [chosenSource, setChosenSource] = usePersisted<'solved' | 'resampled'>('fields.source', 'solved', oneOf('solved', 'resampled'));
  // What was evaluated last stays shown after a view switch, a reload or a restart (its result is kept in the run folder).
  const [shown, setShown] = usePersisted<EvalRequest | null>('fields.shown', null, isEvalRequest);
  const [resIdx, setResIdx] = useState(0);
  const rid = useId();
  const current = shown?.runId === run.id ? shown : null;
  const st = state(current);
  const headline = useRelL2Headline();
  const result = st.result;
  const trainingSide = result?.resolutions[0]?.grid[0] ?? null;
  const extras = mesh ? [] : extraResolutions(checked, resText, trainingSide);
  const validIndex = /^\d+$/.test(index) ? Number(index) : null;

  useEffect(() => {
    if (current && !evals.asked(requestKey(current))) void evals.recall(requestKey(current), requestParams(current));
  }, [current, evals]);

  const evaluate = (req: EvalRequest) => {
    setShown(req);
    if (!evals.asked(requestKey(req)) || state(req).error) void evals.start(requestKey(req), requestParams(req));
  };
  const config = useRunDetail(run.id)?.value?.config;
  const workspace = useApp((s) => s.workspace);
  const choice = useMemo(() => solvedChoice(config, workspace), [config, workspace]);
  const source = effectiveSource(chosenSource, choice);
  const request = (withIndex: boolean): EvalRequest | null =>
    extras ? { runId: run.id, resolutions: extras, index: withIndex && validIndex !== null ? validIndex : null, ...(extras.length ? { source } : {}) } : null;

  const res = result?.resolutions[Math.min(resIdx, result.resolutions.length - 1)];
  const sample =
    which === 'index' ? res?.fields?.find((f) => f.which === 'index' && f.index === current?.index && f.index === validIndex) : res?.fields?.find((f) => f.which === which);
  const grid = res?.grid ?? [];
  // The shown sample's index is the one compare mode uses.
  useEffect(() => {
    if (sample && which !== 'index') onIndex(String(sample.index));
  }, [sample, which, onIndex]);
  useEffect(() => setResIdx(0), [result]);

  const target = runTargetSymbol(config);
  // The same sample at every grid (the engine keeps the training grid's best/median/worst), and
  // the caption saying which grid, how its data were made and which sample, on screen and in exports.
  const caption = res ? provenanceCaption(res, resIdx === 0 || result?.resolutions.length === 1, sample) : '';
  const figures = useMemo(() => (sample && grid.length > 0 ? withCaption(samplePanels(sample, grid, mesh, target), caption) : null), [sample, grid, mesh, target, caption]);
  const resetKey = `${run.id}|${grid.join('x')}|${sample?.index}`;
  const indexError = current?.index !== null && current?.index !== undefined && st.error ? st.error : null;

  return (
    <>
      <div className="row wrap">
        <button onClick={() => { const r = request(which === 'index'); if (r) evaluate(r); }} disabled={st.busy || run.bestEpoch == null || !extras} data-testid="fields-evaluate">
          Evaluate best checkpoint on validation
        </button>
        {run.bestEpoch == null && <span className="muted">This run has no checkpoint yet (no finished epoch).</span>}
        <JobProgress job={st.job} label="Evaluation" {...(st.job ? { testId: `fields-job-${st.job.state}` } : {})} />
        {st.error && !indexError && <span className="error-message" role="alert">Evaluation failed: {st.error}</span>}
      </div>
      {/* A body-fitted mesh has no other resolution to transfer to (the data come on that mesh). */}
      {mesh ? <p className="muted small">Resolution transfer does not apply to data on a fixed mesh.</p> : (
        <>
          <ResolutionPicker trainingSide={trainingSide} checked={checked} onChecked={setChecked} text={resText} onText={setResText} />
          <TransferSourcePicker source={source} onSource={setChosenSource} choice={choice} />
        </>
      )}
      <SamplePicker
        which={which}
        onWhich={setWhich}
        index={index}
        onIndex={onIndex}
        count={result?.resolutions[0]?.n ?? null}
        onShowIndex={() => { const r = request(true); if (r) evaluate(r); }}
        busy={st.busy}
        error={indexError}
      />
      {result && res && (
        <>
          <div className="row wrap">
            {result.resolutions.length > 1 && (
              <>
                <label htmlFor={rid}>View at grid</label>
                <select id={rid} value={Math.min(resIdx, result.resolutions.length - 1)} onChange={(e) => setResIdx(Number(e.target.value))} data-testid="fields-resolution">
                  {result.resolutions.map((r, i) => <option key={i} value={i}>{r.grid.join('×')}{i === 0 ? ' (training)' : ''}</option>)}
                </select>
              </>
            )}
            {sample && (
              <span data-testid="fields-info">
                validation sample {sample.index}, relL2 <span data-testid="fields-headline">{headlineText(sample, headline)}</span>; epoch {result.epoch}; split relL2 {headlineText(res.metrics, headline, true)}; grid {grid.join('×')}
                {which !== 'index' && result.resolutions.length > 1 ? `; the ${which} sample at the training grid, kept at every grid` : ''}
              </span>
            )}
          </div>
          <div className="row wrap">
            {sample && <span className="muted small" data-testid="fields-provenance">{caption}</span>}
            {!sample && which === 'index' && res.fields && <span className="muted">Press “Show sample” to evaluate sample {index}.</span>}
          </div>
          {!res.fields && <p className="muted">This run's task returns no sample fields (autoregressive runs are shown in the Rollout view).</p>}
          {figures && !figures.oneD && <FieldPanels figures={figures} resetKey={resetKey} />}
          {figures && figures.oneD && <FieldLines figures={figures} resetKey={resetKey} />}
          {sample && <FieldDiagnostics sample={sample} res={res} />}
          {sample && <TrustPanel key={resetKey} runId={run.id} input={{ grid, channels: sample.input }} physics={sample.diagnostics?.physics ?? null} what={`validation sample ${sample.index}`} relL2={sample.relL2Decoded} />}
          <ResolutionSweep result={result} runName={run.name} />
        </>
      )}
    </>
  );
}
