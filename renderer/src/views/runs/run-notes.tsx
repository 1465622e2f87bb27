// Editing one run's notes and tags (runs/<id>/meta.json through runs.annotate). The host checks
// sizes and the tag charset as well; the form says the same limits before sending.
import { useEffect, useId, useState } from 'react';
import { RUN_NOTES_MAX, RUN_TAGS_MAX, RunTag, type RunSummary } from '../../../../main/api/contract';
import { useTraining } from '../../stores/training-store';
import { splitTags } from '../../logic/run-filter';
import { errorText } from '../../api/error-text';

export function RunNotes({ run, onClose }: { run: RunSummary; onClose: () => void }) {
  const annotate = useTraining((s) => s.annotate);
  const [notes, setNotes] = useState(run.notes ?? '');
  const [tags, setTags] = useState((run.tags ?? []).join(', '));
  const [status, setStatus] = useState<{ ok: boolean; text: string } | null>(null);
  const [busy, setBusy] = useState(false);
  const id = useId();
  useEffect(() => {
    setNotes(run.notes ?? '');
    setTags((run.tags ?? []).join(', '));
    setStatus(null);
  }, [run.id]);

  const list = splitTags(tags);
  const badTag = list.find((t) => !RunTag.safeParse(t).success);
  const problem = notes.length > RUN_NOTES_MAX ? `Notes are ${notes.length} characters; at most ${RUN_NOTES_MAX}`
    : badTag ? `Tag '${badTag}': at most 32 letters, digits, ".", "_", "+" or "-", starting with a letter or digit`
    : list.length > RUN_TAGS_MAX ? `${list.length} tags; at most ${RUN_TAGS_MAX}` : null;

  const save = async () => {
    setBusy(true);
    setStatus(null);
    try {
      await annotate(run.id, { notes, tags: list });
      setStatus({ ok: true, text: 'Saved in the run folder (meta.json)' });
    } catch (e) {
      setStatus({ ok: false, text: `Could not save: ${errorText(e)}` });
    } finally {
      setBusy(false);
    }
  };

  return (
    <div className="card" role="group" aria-labelledby={`${id}-t`} data-testid="run-notes">
      <h2 id={`${id}-t`}>Notes and tags: {run.name}</h2>
      <div className="field">
        <label htmlFor={`${id}-notes`}>Notes</label>
        <textarea id={`${id}-notes`} data-testid="run-notes-text" rows={4} value={notes} onChange={(e) => setNotes(e.target.value)} maxLength={RUN_NOTES_MAX + 1} />
      </div>
      <div className="field">
        <label htmlFor={`${id}-tags`}>Tags (comma or space separated)</label>
        <input id={`${id}-tags`} data-testid="run-notes-tags" value={tags} onChange={(e) => setTags(e.target.value)} aria-invalid={problem ? true : undefined} aria-describedby={problem ? `${id}-msg` : undefined} />
        {problem && <span id={`${id}-msg`} className="field-msg error-message">{problem}</span>}
      </div>
      <div className="row">
        <button data-testid="run-notes-save" onClick={() => void save()} disabled={busy || !!problem}>Save</button>
        <button onClick={onClose}>Close</button>
        {status && <span role="status" className={status.ok ? 'muted small' : 'error-message small'} data-testid="run-notes-status">{status.text}</span>}
      </div>
    </div>
  );
}
