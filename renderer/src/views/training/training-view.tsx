import { useEffect, useMemo } from 'react';
import { useTraining } from '../../stores/training-store';
import { RunPicker } from '../../components/run-picker';
import { StartForm } from './start-form';
import { RunControls, Stats } from './run-status';
import { Curves } from './curves';
import { QueueCard } from './queue-card';

export function TrainingView() {
  const runs = useTraining((s) => s.runs);
  const selected = useTraining((s) => s.selectedRun);
  const curves = useTraining((s) => (selected ? s.curves[selected] : undefined));
  const refreshRuns = useTraining((s) => s.refreshRuns);
  const run = runs.find((r) => r.id === selected);
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
          <QueueCard />
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
