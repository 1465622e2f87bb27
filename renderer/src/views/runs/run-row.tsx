// One run's row in the Runs table: overlay checkbox, its numbers, and Resume / Folder / Details /
// Delete with the answers to them.
import type { RunSummary } from '../../../../main/api/contract';
import { useTraining } from '../../stores/training-store';
import { secondsCell, testCell } from '../../logic/run-metrics';
import type { TableRow } from '../../export/table';

/** A message next to a run's buttons (the folder's path, or why an action failed). */
export interface RunMessage {
  id: string;
  text: string;
  path?: string;
  ok: boolean;
}

export interface RunRowProps {
  run: RunSummary;
  inGroup: boolean;
  row: TableRow;
  /** The queue time is wall time minus train time. */
  estimated: boolean;
  checked: boolean;
  onToggle(): void;
  confirming: boolean;
  onConfirm(yes: boolean): void;
  onDelete(): void;
  onReveal(): void;
  onDetails(): void;
  folder: RunMessage | null;
  deleteError: string | null;
}

const fmt = (v: number | null | undefined) => (v == null || !Number.isFinite(v) ? '—' : v.toPrecision(4));

export function RunRow({ run: r, inGroup, row, estimated, checked, onToggle, confirming, onConfirm, onDelete, onReveal, onDetails, folder, deleteError }: RunRowProps) {
  const control = useTraining((s) => s.control);
  const runError = useTraining((s) => s.runErrors[r.id]);
  const canResume = r.state === 'interrupted' || r.state === 'stopped' || r.state === 'paused';
  const busy = r.state === 'running' || r.state === 'queued' || r.state === 'paused';
  const test = testCell(r);
  return (
    <tr className={inGroup ? 'in-group' : undefined} data-testid={`run-row-${r.id}`}>
      <td><input type="checkbox" aria-label={`Overlay run ${r.name}`} checked={checked} onChange={onToggle} /></td>
      <th scope="row">{r.name}</th>
      <td className="group-cell" title={r.group ?? undefined}>{String(row.group)}{r.seed != null && r.group ? ` (seed ${r.seed})` : ''}</td>
      <td data-testid="run-model">{String(row.model)}</td>
      <td><span className={`state state-${r.state}`} title={r.reason}>{r.state}</span></td>
      <td className="num">{String(row.epochs)}</td>
      <td className="num" data-testid="run-params">{row.params == null ? '—' : (row.params as number).toLocaleString('en-US')}</td>
      <td className="num">{fmt(r.bestValRelL2)}</td>
      <td className="num" data-testid="run-test" title={test.why}>{test.text}</td>
      <td className="num">{r.bestEpoch ?? '—'}</td>
      <td className="small diff">{String(row.diff) || '—'}</td>
      <td className="small" data-testid="run-tags" title={r.notes}>{(r.tags ?? []).map((t) => <span key={t} className="tag">{t}</span>)}{r.notes ? <span className="muted" aria-label="has notes"> ✎</span> : null}</td>
      <td className="small wide-only">{String(row.created)}</td>
      <td className="num small" data-testid="run-wall-time" title={`created ${String(row.created)} to the last status change; train ${secondsCell(row.train as number | null)} s, queued ${secondsCell(row.queue as number | null)} s`}>{secondsCell(row.wall as number | null)}</td>
      <td className="num small wide-only" data-testid="run-train-time">{secondsCell(row.train as number | null)}</td>
      <td className="num small wide-only" data-testid="run-queue-time" title={estimated ? 'wall time minus train time: queue, start-up and pauses' : undefined}>{secondsCell(row.queue as number | null)}</td>
      <td className="actions">
        <div className="row wrap">
          {canResume && <button onClick={() => control(r.id, 'resume')} aria-label={`Resume ${r.name}`}>Resume</button>}
          <button onClick={onReveal} aria-label={`Open the folder of ${r.name}`}>Folder</button>
          <button onClick={onDetails} aria-label={`Details of ${r.name}`} title="Notes, tags, checkpoints and Run on a cluster" data-testid="run-notes-open">Details</button>
          {confirming ? (
            <span role="group" aria-label={`Confirm deleting ${r.name}`}>
              Delete for good? <button onClick={onDelete} data-testid="confirm-delete">Delete</button>{' '}
              <button onClick={() => onConfirm(false)}>Keep</button>
            </span>
          ) : (
            <button onClick={() => onConfirm(true)} disabled={busy} title={busy ? 'Stop the run first' : undefined} aria-label={`Delete ${r.name}`}>Delete</button>
          )}
        </div>
        {runError && <span className="error-message small">{runError}</span>}
        {deleteError && <span className="error-message small" role="alert">{deleteError}</span>}
        {folder && (
          <span className={folder.ok ? 'small' : 'error-message small'} role={folder.ok ? 'status' : 'alert'} data-testid="run-folder">
            {folder.text} {folder.path && <code className="selectable">{folder.path}</code>}
          </span>
        )}
      </td>
    </tr>
  );
}
