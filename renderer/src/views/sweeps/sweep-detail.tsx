// One sweep: where it stands with pause / resume / stop, the live trial table, per configuration
// the mean ± std over seeds, parameter importance, parallel coordinates and the best-so-far curve,
// each exportable; "Train the best configuration fully" (asking epochs, seeds and a name) and
// "Compare" into the Runs view.
import { memo, useMemo, useState } from 'react';
import type { SweepDetail as Detail } from '../../../../main/api/contract';
import { TableExportBar } from '../../export/table-export-bar';
import { cellTexts, type TableColumn, type TableRow } from '../../export/table';
import { sweepConfigTable, sweepImportanceTable, sweepTrialTable } from '../../../../main/api/sweep-tables';
import { compareInRuns, controlSweep, trainBest } from '../../queries/sweeps';
import { trainBestDefaults, trialCount, type TrainBestForm } from '../../logic/sweep-form';
import { bestSoFarSvg } from './sweep-svg';
import { ParallelCoordinates } from '../../plots/parallel-coordinates-plot';
import type { ParallelAxis, ParallelRow } from '../../plots/parallel-coordinates';
import { FigureExport } from './figure-export';
import { ReportButton } from '../../export/report-button';
import { errorText } from '../../api/error-text';

type Axis = { path: string; logRange?: unknown };
const show = (v: unknown) => (typeof v === 'number' ? Number(v.toPrecision(4)) : Array.isArray(v) ? v.join('+') : String(v));

/** A table as the exports print it (the same digits, signs and relL2 convention in its labels). */
function SimpleTable({ columns, rows, testId, caption }: { columns: TableColumn[]; rows: TableRow[]; testId: string; caption: string }) {
  const texts = cellTexts(columns, rows);
  return (
    <div className="table-wrap"><table className="runs-table sweep-table" data-testid={testId}>
      <caption>{caption}</caption>
      <thead><tr>{columns.map((c) => <th key={c.key} scope="col" className={c.align === 'r' ? 'num' : undefined}>{c.label}</th>)}</tr></thead>
      <tbody>{texts.map((r, i) => <tr key={i}>{columns.map((c, k) => <td key={c.key} className={c.align === 'r' ? 'num' : undefined}>{r[k]}</td>)}</tr>)}</tbody>
    </table></div>
  );
}

function tables(d: Detail) {
  const axes = (d.config.axes as Axis[]).map((a) => a.path);
  const trials = sweepTrialTable(axes, d.state), configs = sweepConfigTable(axes, d.state, d.analysis), imp = sweepImportanceTable(d.analysis);
  return { trialCols: trials.columns, trialRows: trials.rows, configCols: configs.columns, configRows: configs.rows, impCols: imp.columns, impRows: imp.rows };
}

/** The parallel coordinates' axes (each swept field, then the metric) and one row per ended trial. */
function parallel(d: Detail): { axes: ParallelAxis[]; rows: ParallelRow[] } {
  const ended = d.state.trials.filter((t) => t.best !== null && (t.state === 'done' || t.state === 'pruned'));
  const swept = d.config.axes as Axis[];
  const value = (t: (typeof ended)[number], path: string) => {
    const v = d.state.configs[t.config]!.params[path];
    return typeof v === 'number' ? v : show(v);
  };
  const axes: ParallelAxis[] = [
    ...swept.map((a): ParallelAxis => ({ key: a.path, label: a.path, kind: ended.every((t) => typeof value(t, a.path) === 'number') ? 'number' : 'text', scale: a.logRange !== undefined ? 'log' : 'linear' })),
    { key: '__metric', label: 'val relL2 (normalized)', kind: 'number' },
  ];
  const rows: ParallelRow[] = ended.map((t, i) => ({ id: t.runId, name: `trial ${i + 1}`, ...Object.fromEntries(swept.map((a) => [a.path, value(t, a.path)])), __metric: t.best }));
  return { axes, rows };
}

/** What "Train the best configuration fully" asks before it starts: epochs, seeds (new ones by default) and a name. */
function TrainBestCard({ form, onChange, onStart, onCancel }: { form: TrainBestForm; onChange: (f: TrainBestForm) => void; onStart: () => void; onCancel: () => void }) {
  const set = (p: Partial<TrainBestForm>) => onChange({ ...form, ...p });
  return (
    <div className="card sweep-form-row" role="group" aria-label="Train the best configuration" data-testid="train-best-form">
      <label>Name <input aria-label="Run name" value={form.name} size={28} onChange={(e) => set({ name: e.target.value })} /></label>
      <label>Epochs <input aria-label="Epochs" value={form.epochs} size={6} onChange={(e) => set({ epochs: e.target.value })} /></label>
      <label>Seeds <input aria-label="Seeds" value={form.seeds} size={3} onChange={(e) => set({ seeds: e.target.value })} /></label>
      <label>First seed <input aria-label="First seed" value={form.firstSeed} size={6} onChange={(e) => set({ firstSeed: e.target.value })} /></label>
      <span className="muted">new seeds by default: the trials used the ones before</span>
      <button onClick={onStart}>Start training</button>
      <button onClick={onCancel}>Cancel</button>
    </div>
  );
}

export const SweepDetail = memo(function SweepDetail({ detail: d, onChanged }: { detail: Detail; onChanged: () => void }) {
  const [message, setMessage] = useState<{ ok: boolean; text: string } | null>(null);
  const s = d.summary;
  const act = async (action: 'pause' | 'resume' | 'stop') => {
    const err = await controlSweep(s.id, action);
    setMessage(err ? { ok: false, text: err } : null);
    onChanged();
  };
  const [bestForm, setBestForm] = useState<TrainBestForm | null>(null);
  const best = async () => {
    if (!bestForm) return;
    try {
      const id = await trainBest(d, bestForm);
      setBestForm(null);
      setMessage({ ok: true, text: `Training the best configuration fully: run ${id} (see Training and Runs)` });
    } catch (e) {
      setMessage({ ok: false, text: `Could not train the best configuration: ${errorText(e)}` });
    }
  };
  const t = tables(d);
  const pc = useMemo(() => parallel(d), [d]);
  const curve = d.analysis.bestSoFar.length ? bestSoFarSvg(d.analysis.bestSoFar) : null;
  return (
    <section aria-labelledby="sweep-detail-title" data-testid="sweep-detail">
      <h2 id="sweep-detail-title">{s.name} <span className="muted">({s.id})</span></h2>
      <p data-testid="sweep-status">
        {s.status}{s.reason ? ` – ${s.reason}` : ''}: {trialCount(s, 'trials ended')} ({s.pruned} pruned, {s.failed} failed), {s.method}, {s.wallSeconds.toFixed(0)} s
        {s.best !== null ? `, best val relL2 ${s.best.toExponential(3)} (normalized)` : ''}
      </p>
      <div role="group" aria-label="Sweep controls">
        <button onClick={() => act('pause')} disabled={!s.active || s.paused}>Pause</button>
        <button onClick={() => act('resume')} disabled={s.active && !s.paused || s.status === 'done'}>Resume</button>
        <button onClick={() => act('stop')} disabled={!s.active}>Stop</button>
        <button onClick={() => d.analysis.best && setBestForm(trainBestDefaults(d.config, s.name, d.analysis.best.config))} disabled={!d.analysis.best || bestForm !== null}>Train the best configuration fully…</button>
        <button onClick={() => compareInRuns(d)} disabled={d.analysis.configs.every((c) => c.mean === null)}>Compare in Runs</button>
        <ReportButton kind="sweep" id={s.id} label={`sweep ${s.name}`} />
      </div>
      {bestForm && <TrainBestCard form={bestForm} onChange={setBestForm} onStart={best} onCancel={() => setBestForm(null)} />}
      {message && <p role="status" className={message.ok ? 'muted' : 'error-message'}>{message.text}</p>}
      <SimpleTable columns={t.trialCols} rows={t.trialRows} testId="sweep-trials" caption="Trials" />
      <TableExportBar title={`sweep ${s.id} trials`} columns={t.trialCols} rows={t.trialRows} />
      <SimpleTable columns={t.configCols} rows={t.configRows} testId="sweep-configs" caption="Per configuration: best validation relL2 (normalized) over seeds" />
      <TableExportBar title={`sweep ${s.id} configurations`} columns={t.configCols} rows={t.configRows} />
      <SimpleTable columns={t.impCols} rows={t.impRows} testId="sweep-importance" caption={`Parameter importance (as W&B: random forest and correlation with the metric) ${d.analysis.importanceBasis.text}`} />
      <TableExportBar title={`sweep ${s.id} importance`} columns={t.impCols} rows={t.impRows} />
      {pc.rows.length > 0 && (
        <ParallelCoordinates title={`sweep ${s.id} parallel coordinates`} axes={pc.axes} rows={pc.rows} colorBy="__metric" testId="sweep-parallel" />
      )}
      {curve && (
        <figure data-testid="sweep-best-so-far">
          <div dangerouslySetInnerHTML={{ __html: curve }} />
          <figcaption>Best validation relL2 (normalized) so far, over trials</figcaption>
          <FigureExport title={`sweep ${s.id} best so far`} svg={curve} width={520} height={260} />
        </figure>
      )}
    </section>
  );
});
