import { useId, useMemo, useState } from 'react';
import type { RunSummary } from '../../../main/api/contract';
import { useTraining } from '../stores/training-store';
import { useApp } from '../stores/app-store';
import { pickerRuns, runDataWords, runOptionText } from '../logic/run-picker-search';

export interface RunPickerProps {
  /** Only these runs are offered (the Rollout view: Navier–Stokes runs); all runs by default. */
  offered?: RunSummary[];
  /** What the offered runs are, for the placeholder when the selected run is not one of them. */
  offeredWhat?: string;
}

/** The run the views show (shared selection): a search over name, tags, data and kind, then the most recent first. */
export function RunPicker({ offered, offeredWhat = 'runs' }: RunPickerProps = {}) {
  const all = useTraining((s) => s.runs);
  const selected = useTraining((s) => s.selectedRun);
  const selectRun = useTraining((s) => s.selectRun);
  const workspace = useApp((s) => s.workspace);
  const [query, setQuery] = useState('');
  const ids = { select: useId(), search: useId() };
  const source = offered ?? all;
  const runs = useMemo(() => pickerRuns(source, query, (r) => runDataWords(r, workspace), selected), [source, query, workspace, selected]);
  if (all.length === 0) return <p className="muted" data-testid="no-runs-yet">No runs yet: start one below or from the Workspace's quick start.</p>;
  const current = runs.some((r) => r.id === selected) ? selected! : '';
  const matching = runs.filter((r) => r.id !== selected || !query).length;
  return (
    <div className="row wrap">
      <label htmlFor={ids.search}>Find a run</label>
      <input id={ids.search} type="search" data-testid="run-picker-search" value={query} placeholder="name, tag, dataset, kind" onChange={(e) => setQuery(e.target.value.slice(0, 100))} />
      <label htmlFor={ids.select}>Run</label>
      <select id={ids.select} data-testid="run-picker" value={current} onChange={(e) => selectRun(e.target.value || null)}>
        {current === '' && <option value="" disabled>{runs.length ? `Pick one of the ${offeredWhat}` : query ? `No ${offeredWhat} match “${query}”` : `No ${offeredWhat} yet`}</option>}
        {runs.map((r) => <option key={r.id} value={r.id}>{runOptionText(r, runDataWords(r, workspace))}</option>)}
      </select>
      {query && <span className="muted small" data-testid="run-picker-count">{matching} of {source.length} match</span>}
    </div>
  );
}
