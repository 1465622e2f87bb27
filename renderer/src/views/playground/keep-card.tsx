// "Keep what you found", besides saving a new dataset: export the shown arrays (input,
// prediction, truth, |error|) as .npy into the workspace's exports/, or add the input and its truth
// to an existing dataset of the same benchmark and grid (the engine refuses any other, saying why).
import { useEffect, useId, useState } from 'react';
import { useApp } from '../../stores/app-store';
import { usePlayground } from '../../stores/playground';
import { appendNote, appendableDatasets, usePlaygroundKeep } from '../../stores/playground-keep';

export function KeepCard() {
  const k = usePlaygroundKeep();
  const input = usePlayground((s) => s.input);
  const truth = usePlayground((s) => s.truth);
  const datasets = useApp((s) => s.workspace?.datasets);
  const runId = usePlayground((s) => s.runId);
  const grid = input?.grid.join() ?? '';
  const loadAppendable = k.loadAppendable;
  // asked again when the run, the grid or the workspace's datasets change (a save adds one)
  useEffect(() => void loadAppendable(), [loadAppendable, runId, grid, datasets]);
  const [name, setName] = useState('playground');
  const [into, setInto] = useState('');
  const [split, setSplit] = useState<'train' | 'val' | 'test'>('val');
  const ids = { name: useId(), into: useId(), split: useId() };
  const hasTruth = !!truth && !!input && truth.grid.join() === input.grid.join();
  // only datasets the engine would append to are offered: not the run's own data, a prepared cache, another grid or benchmark
  const fitting = appendableDatasets(k.appendable, runId, grid, datasets ?? []);
  const refused = k.appendable?.datasets.filter((d) => d.refusal).length ?? 0;
  return (
    <div className="card">
      <h2>Keep what you found</h2>
      <div className="row">
        <label htmlFor={ids.name}>Export folder</label>
        <input id={ids.name} value={name} onChange={(e) => setName(e.target.value)} data-testid="playground-export-name" />
        <button type="button" disabled={!input} data-testid="playground-export" onClick={() => void k.exportArrays(name)}>Export arrays (.npy)</button>
        {k.exported && <span role="status" className="small" data-testid="playground-exported">Exported {k.exported}</span>}
      </div>
      <div className="row">
        <label htmlFor={ids.into}>Add to dataset</label>
        <select id={ids.into} value={into} data-testid="playground-append-into" onChange={(e) => setInto(e.target.value)}>
          <option value="">{fitting.length ? '(choose)' : '(none can take it)'}</option>
          {fitting.map((d) => <option key={d.id} value={d.id}>{d.name}</option>)}
        </select>
        <label htmlFor={ids.split}>split</label>
        <select id={ids.split} value={split} data-testid="playground-append-split" onChange={(e) => setSplit(e.target.value as 'train' | 'val' | 'test')}>
          <option value="train">train</option>
          <option value="val">val</option>
          <option value="test">test</option>
        </select>
        <button type="button" disabled={!into || !hasTruth} data-testid="playground-append" onClick={() => void k.appendTo(into, split)}>Add input and truth</button>
        {k.appended && <span role="status" className="small" data-testid="playground-appended">{k.appended}</span>}
      </div>
      {k.appendable && <p className="muted small" data-testid="playground-append-note">{appendNote(fitting.length, refused)}</p>}
      {k.error && <p className="error" role="alert" data-testid="playground-keep-error">{k.error}</p>}
    </div>
  );
}
