import { useId } from 'react';
import { useTraining } from '../store/training-store';

/** The run the Training and Gates views show (shared selection). */
export function RunPicker() {
  const runs = useTraining((s) => s.runs);
  const selected = useTraining((s) => s.selectedRun);
  const selectRun = useTraining((s) => s.selectRun);
  const id = useId();
  if (runs.length === 0) return <p className="muted" data-testid="no-runs-yet">No runs yet: start one below or from the Workspace's quick start.</p>;
  return (
    <div className="row">
      <label htmlFor={id}>Run</label>
      <select id={id} data-testid="run-picker" value={selected ?? ''} onChange={(e) => selectRun(e.target.value || null)}>
        {runs.map((r) => (
          <option key={r.id} value={r.id}>
            {r.name} — {r.state} ({r.epochsDone}/{r.epochs ?? '?'} epochs)
          </option>
        ))}
      </select>
    </div>
  );
}
