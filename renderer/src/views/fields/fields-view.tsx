// The Fields view: a run's validation samples (best/median/worst or any index) as input,
// reference, prediction and |error| with linked zoom and hover, resolution transfer, and the same
// sample compared across runs trained on the same data. Parts live in views/fields/.
import { useEffect, useState } from 'react';
import { usePersisted, oneOf } from '../../stores/persisted-state';
import { useTraining } from '../../stores/training-store';
import { RunPicker } from '../../components/run-picker';
import { isMeshDataset } from '../../plots/mesh-field';
import { SingleRun } from './single-run';
import { CompareRuns } from './compare-runs';
import { useRunData } from './run-data';
import { ExportPredictions } from './export-predictions';

export function FieldsView() {
  const runs = useTraining((s) => s.runs);
  const run = useTraining((s) => s.runs.find((r) => r.id === s.selectedRun));
  const refreshRuns = useTraining((s) => s.refreshRuns);
  const [mode, setMode] = usePersisted<'single' | 'compare'>('fields.mode', 'single', oneOf('single', 'compare'));
  // The sample index, shared by both modes (compare shows the sample the single view showed).
  const [index, setIndex] = useState('0');
  const data = useRunData(runs.map((r) => r.id));
  useEffect(() => {
    void refreshRuns();
  }, [refreshRuns]);
  const mesh = run ? isMeshDataset(data[run.id]?.benchmark, []) : false;

  return (
    <section aria-labelledby="fields-title">
      <h1 id="fields-title">Fields</h1>
      <RunPicker />
      {run && (
        <>
          <div className="row" role="group" aria-label="Fields mode">
            <button aria-pressed={mode === 'single'} onClick={() => setMode('single')} data-testid="fields-mode-single">This run</button>
            <button aria-pressed={mode === 'compare'} onClick={() => setMode('compare')} data-testid="fields-mode-compare">Compare runs</button>
          </div>
          {/* Both stay mounted (hidden), so switching modes keeps their evaluations. */}
          <div hidden={mode !== 'single'}>
            <SingleRun key={run.id} run={run} mesh={mesh} index={index} onIndex={setIndex} />
          </div>
          <div hidden={mode !== 'compare'}>
            <CompareRuns run={run} runs={runs} data={data} mesh={mesh} index={index} />
          </div>
          <ExportPredictions key={`export-${run.id}`} run={run} />
        </>
      )}
    </section>
  );
}
