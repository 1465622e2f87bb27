// The selected dataset's name and the user's own label for it; its id (the content hash) only here.
import { useEffect, useId, useState } from 'react';
import type { WorkspaceSummary } from '../../../../main/api/contract';
import { setDatasetLabel } from '../../queries/dataset-names';
import { errorText } from '../../api/error-text';

export function DatasetLabelCard({ dataset }: { dataset: WorkspaceSummary['datasets'][number] }) {
  const [text, setText] = useState(dataset.label ?? '');
  const [status, setStatus] = useState<{ ok: boolean; text: string } | null>(null);
  const id = useId();
  useEffect(() => {
    setText(dataset.label ?? '');
    setStatus(null);
  }, [dataset.id, dataset.label]);
  const save = async () => {
    try {
      await setDatasetLabel(dataset.id, text);
      setStatus({ ok: true, text: text.trim() ? 'Label saved' : 'Label cleared' });
    } catch (e) {
      setStatus({ ok: false, text: `Could not save the label: ${errorText(e)}` });
    }
  };
  return (
    <div className="card" role="region" aria-labelledby={`${id}-t`} data-testid="dataset-details">
      <h2 id={`${id}-t`} data-testid="dataset-name">{dataset.name}</h2>
      <form className="row wrap" onSubmit={(e) => { e.preventDefault(); void save(); }}>
        <label htmlFor={`${id}-l`}>Label</label>
        <input id={`${id}-l`} data-testid="dataset-label" value={text} maxLength={80} placeholder="your name for it" onChange={(e) => setText(e.target.value)} />
        <button type="submit" data-testid="dataset-label-save">Save label</button>
        {status && <span role={status.ok ? 'status' : 'alert'} className={status.ok ? 'muted small' : 'error-message small'}>{status.text}</span>}
      </form>
      <p className="small muted">Id (content hash): <code className="selectable" data-testid="dataset-id">{dataset.id}</code></p>
    </div>
  );
}
