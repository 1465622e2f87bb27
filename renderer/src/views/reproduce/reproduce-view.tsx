// Reproduce: the paper's six reproductions (main/reproduce/presets.ts), one action each. Lists the
// presets with their sizes and estimated times, runs the chosen one as a 'reproduce' job (progress,
// ETA, cancel; its runs land in the workspace like any other), then shows its tables with the
// paper's reported rows apart and labelled, exportable as LaTeX or CSV. `lino reproduce` runs the same.
import { useEffect, useId, useState } from 'react';
import type { JobSummary } from '../../../../main/api/contract';
import type { ReproducePresetInfo, ReproduceResult, ReproduceSize } from '../../../../main/api/reproduce';
import { latestOf, nextRunName, pendingReproduction, startReproduction, useReproducePresets, useReproductions, workspaceRelative } from '../../queries/reproduce';
import { useApp } from '../../stores/app-store';
import { useTraining } from '../../stores/training-store';
import { oneOf, usePersisted } from '../../stores/persisted-state';
import { JobProgress } from '../../components/job-progress';
import { ReproduceTable } from './reproduce-table';
import { ReproduceFigures } from './reproduce-figures';
import { ReportButton } from '../../export/report-button';
import { BackendPicker } from '../../components/backend-picker';
import { BACKEND_CHOICES, choiceProblem, reproduceBackend, type BackendChoice } from '../../logic/backend-choice';
import { useTorchProbe } from '../../queries/torch-probe';

const SIZES: ReproduceSize[] = ['tiny', 'quick', 'paper'];

export function fmtDuration(s: number): string {
  if (s < 90) return `${Math.round(s)} s`;
  if (s < 5400) return `${Math.round(s / 60)} min`;
  if (s < 3 * 86400) return `${(s / 3600).toFixed(1)} h`;
  return `${Math.round(s / 86400)} days`;
}

function PresetList({ presets, selected, size, onSelect }: { presets: ReproducePresetInfo[]; selected: string; size: ReproduceSize; onSelect: (name: string) => void }) {
  const name = useId();
  return (
    <fieldset className="card" data-testid="reproduce-presets">
      <legend>Preset</legend>
      {presets.map((p) => {
        const s = p.sizes.find((x) => x.size === size);
        return (
          // no wrap: a long label wraps its own lines beside the radio (wrapped as a whole, it fell below it)
          <div key={p.name} className="row" style={{ alignItems: 'baseline' }} data-testid="reproduce-preset-row">
            <input type="radio" id={`${name}-${p.name}`} name={name} checked={selected === p.name} onChange={() => onSelect(p.name)} />
            <label htmlFor={`${name}-${p.name}`} style={{ flex: 1 }}>
              <strong>{p.number}. {p.paper}</strong>: {p.title}
              <span className="muted small" data-testid={`reproduce-estimate-${p.name}`}>
                {' '}({p.arms.join(', ')}; {size}: about {s ? fmtDuration(s.estimateSeconds) : '?'} on 2 cores — {s?.summary})
              </span>
            </label>
          </div>
        );
      })}
    </fieldset>
  );
}

function Results({ result }: { result: ReproduceResult }) {
  const workspace = useApp((s) => s.workspace?.path);
  return (
    <div data-testid="reproduce-result">
      <p className="muted small">
        {result.preset} ({result.size}){(result.repeat ?? 1) > 1 ? `, run ${result.repeat}` : ''} took {fmtDuration(result.seconds)}; {result.runs.length} runs in the workspace; files in{' '}
        <code className="selectable" title={result.outDir}>{workspaceRelative(result.outDir, workspace)}</code>
        {result.figures.length > 0 && <> (figure data: {result.figures.map((f) => f.kind).join(', ')})</>}.
      </p>
      <ReportButton kind="reproduction" id={result.outDir.split(/[\\/]/).pop() ?? ''} label={`${result.preset} (${result.size})`} />
      {result.tables.map((t) => <ReproduceTable key={t.title} table={t} />)}
      <ReproduceFigures figures={result.figures} />
    </div>
  );
}

export function ReproduceView() {
  const api = useApp((s) => s.api);
  const jobs = useApp((s) => s.jobs);
  const refreshWorkspace = useApp((s) => s.refreshWorkspace);
  const { presets, error: listError } = useReproducePresets();
  const [startError, setStartError] = useState<string | null>(null);
  const error = startError ?? listError;
  const [selected, setSelected] = usePersisted<string>('reproduce.preset', 'burgers', (v) => typeof v === 'string' && v.length <= 64);
  const [size, setSize] = usePersisted<ReproduceSize>('reproduce.size', 'tiny', oneOf(...SIZES));
  const [backend, setBackend] = usePersisted<BackendChoice>('reproduce.backend', 'engine', oneOf(...BACKEND_CHOICES));
  const probe = useTorchProbe().value;
  const backendProblem = probe ? choiceProblem(backend, probe) : null;
  const [jobId, setJobId] = useState<string | null>(null);
  const [asking, setAsking] = useState(false);
  // a reproduction of the chosen preset and size still under way (started before a reload or a view switch)
  const pending = pendingReproduction(jobs, selected, size);
  const job: JobSummary | undefined = jobId ? jobs[jobId] : undefined;
  useEffect(() => {
    if (pending && pending !== jobId && !(job?.state === 'queued' || job?.state === 'running')) setJobId(pending);
  }, [pending, jobId, job?.state]);
  const busy = job?.state === 'queued' || job?.state === 'running';
  // Read back from the workspace (a view switch, a reload or a restart shows the same tables),
  // again whenever a reproduction finishes or a run goes away.
  const runCount = useTraining((s) => s.runs.length);
  const stored = useReproductions(`${job?.state === 'done' ? job.id : ''}:${runCount}`);
  const { latest, count } = latestOf(stored.results, selected, size);
  const fresh = job?.state === 'done' ? (job.result as ReproduceResult) : null;
  // the job's own answer until the read-back (from the runs on disk) has it
  const result = fresh && fresh.preset === selected && fresh.size === size && !stored.results.some((r) => r.outDir === fresh.outDir) ? fresh : latest;
  const sizeId = useId();

  useEffect(() => {
    if (job?.state === 'done') void refreshWorkspace();
  }, [job?.state, refreshWorkspace]);

  const start = async (again: boolean) => {
    setStartError(null);
    // Reproduced before: ask whether to show that result or run it again as a new group.
    if (count > 0 && !again) return setAsking(true);
    setAsking(false);
    const r = await startReproduction(selected, size, again, reproduceBackend(backend));
    if ('jobId' in r) setJobId(r.jobId);
    else setStartError(r.error);
  };

  return (
    <section aria-labelledby="reproduce-title">
      <h1 id="reproduce-title">Reproduce</h1>
      <p className="muted">
        The paper's tables and figures, one action each: trains every model of the preset on generated data at the chosen size, then shows the
        measured numbers beside the paper's (rows labelled <em>reported (paper)</em>, with their metric convention). tiny checks the pipeline in
        seconds, quick gives numbers in minutes, paper is the paper's protocol (days).
      </p>
      {presets && <PresetList presets={presets} selected={selected} size={size} onSelect={setSelected} />}
      <div className="row wrap">
        <label htmlFor={sizeId}>Size</label>
        <select id={sizeId} value={size} onChange={(e) => setSize(e.target.value as ReproduceSize)} data-testid="reproduce-size">
          {SIZES.map((s) => <option key={s} value={s}>{s}</option>)}
        </select>
        <button onClick={() => void start(false)} disabled={busy || !api || !presets || backendProblem !== null} data-testid="reproduce-start">Reproduce</button>
        <JobProgress job={job} label="Reproduction" testId="reproduce-progress" />
      </div>
      <BackendPicker value={backend} onChange={setBackend} probe={probe} testId="reproduce-backend" />
      {backendProblem && <p className="error-message" role="alert">Backend: {backendProblem}</p>}
      {asking && count > 0 && (
        <div className="card" role="group" aria-label="Reproduced before" data-testid="reproduce-again">
          <p>
            {selected} ({size}) was reproduced before{count > 1 ? ` ${count} times` : ''}; its table is shown below. Run it again as a new group
            named <strong>{nextRunName(selected, size, count)}</strong> (its runs and its folder under exports/ carry that name)?
          </p>
          <div className="row">
            <button onClick={() => setAsking(false)} data-testid="reproduce-reuse">Keep the earlier result</button>
            <button onClick={() => void start(true)} data-testid="reproduce-new-group">Run again as {nextRunName(selected, size, count)}</button>
          </div>
        </div>
      )}
      {error && <p className="error-message" role="alert">{error}</p>}
      {stored.error && <p className="error-message" role="alert">{stored.error}</p>}
      {stored.problems.map((m) => <p key={m} className="error-message small">{m}</p>)}
      {job?.state === 'failed' && <p className="error-message" role="alert">The reproduction failed: {job.error}</p>}
      {job?.state === 'cancelled' && <p role="status" data-testid="reproduce-cancelled">Cancelled; the runs it finished stay in the workspace.</p>}
      {result && <Results result={result} />}
    </section>
  );
}
