import { useId } from 'react';
import type { RunSummary } from '../../../main/api/contract';
import { useTraining } from '../store/training-store';

export interface RunPickerProps {
  /** Only these runs are offered (the Rollout view: Navier–Stokes runs); all runs by default. */
  offered?: RunSummary[];
  /** What the offered runs are, for the placeholder when the selected run is not one of them. */
  offeredWhat?: string;
}

/** The run the views show (shared selection). */
export function RunPicker({ offered, offeredWhat = 'runs' }: RunPickerProps = {}) {
  const all = useTraining((s) => s.runs);
  const selected = useTraining((s) => s.selectedRun);
  const selectRun = useTraining((s) => s.selectRun);
  const id = useId();
  const runs = offered ?? all;
  if (all.length === 0) return <p className="muted" data-testid="no-runs-yet">No runs yet: start one below or from the Workspace's quick start.</p>;
  const current = runs.some((r) => r.id === selected) ? selected! : '';
  return (
    <div className="row">
      <label htmlFor={id}>Run</label>
      <select id={id} data-testid="run-picker" value={current} onChange={(e) => selectRun(e.target.value || null)}>
        {current === '' && <option value="" disabled>{runs.length ? `Pick one of the ${offeredWhat}` : `No ${offeredWhat} yet`}</option>}
        {runs.map((r) => (
          <option key={r.id} value={r.id}>
            {r.name} — {r.state} ({r.epochsDone}/{r.epochs ?? '?'} epochs)
          </option>
        ))}
      </select>
    </div>
  );
}
