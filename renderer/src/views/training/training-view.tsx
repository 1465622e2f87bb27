import { useEffect, useMemo } from 'react';
import { useTraining } from '../../store/training-store';
import { RunPicker } from '../../components/run-picker';
import { StartForm } from './start-form';
import { RunControls, Stats } from './run-status';
import { Curves } from './curves';

export function TrainingView() {
  const runs = useTraining((s) => s.runs);
  const selected = useTraining((s) => s.selectedRun);
  const curves = useTraining((s) => (selected ? s.curves[selected] : undefined));
  const refreshRuns = useTraining((s) => s.refreshRuns);
  const run = runs.find((r) => r.id === selected);
  const queued = runs.filter((r) => r.state === 'queued');
  useEffect(() => {
    void refreshRuns();
  }, [refreshRuns]);
  const last = curves?.epochs[curves.epochs.length - 1];
  const lastLr = curves?.steps[curves.steps.length - 1]?.lr ?? last?.lr;
  const epochSeconds = useMemo(() => (curves?.epochs ?? []).map((e) => e.epochSeconds), [curves]);
  return (
    <section aria-labelledby="training-title" className="training-view">
      <h1 id="training-title">Training</h1>
      <div className="training-grid">
        <div>
          <StartForm />
          {queued.length > 0 && (
            <div className="card" data-testid="queue">
              <h2>Queue</h2>
              <ol>{queued.map((r) => <li key={r.id}>{r.name}</li>)}</ol>
            </div>
          )}
        </div>
        <div className="card">
          <h2>Run</h2>
          <RunPicker />
          {run && (
            <>
              <RunControls run={run} />
              <Stats run={run} last={last} lastLr={lastLr} epochSeconds={epochSeconds} />
            </>
          )}
        </div>
      </div>
      {run && <Curves runId={run.id} />}
    </section>
  );
}
