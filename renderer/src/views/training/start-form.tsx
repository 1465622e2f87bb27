// The Training view's "New run" form: data, the Model view's model, epochs, batch, learning rate,
// seeds and data-parallel workers (checked as typed), a time estimate, and Start.
import { useEffect, useId, useState } from 'react';
import { useApp } from '../../stores/app-store';
import { useTraining } from '../../stores/training-store';
import { usePersisted } from '../../stores/persisted-state';
import { describeDraft, draftToTrainModel, trainModelProblems } from '../../logic/model-draft';
import { NO_NAME, runNameKey, shownName, validTypedName, type TypedName } from '../../logic/run-name';
import { errorText } from '../../api/error-text';
import { NumberField } from '../../components/number-field';
import { TimeEstimate } from '../../components/time-estimate';
import { useDatasetPresets } from '../../queries/datasets';
import { dataSpecFor } from '../../logic/generate-params';
import { oneOf } from '../../stores/persisted-state';
import { useTorchProbe } from '../../queries/torch-probe';
import { BACKEND_CHOICES, backendConfig, choiceProblem, type BackendChoice } from '../../logic/backend-choice';
import { BackendPicker } from '../../components/backend-picker';

/** The paper's protocol (docs/training.md): 500 epochs, batch 4, AdamW lr 1e-3. */
export const PAPER_DEFAULTS = { epochs: 500, batchSize: 4, lr: 1e-3 };


function problemsOf(v: { epochs: number; batch: number; lr: number; seeds: number; workers: number }): Record<string, string> {
  const problems: Record<string, string> = {};
  if (!Number.isInteger(v.epochs) || v.epochs < 1 || v.epochs > 100000) problems.epochs = 'Epochs must be a whole number from 1 to 100000';
  if (!Number.isInteger(v.batch) || v.batch < 1 || v.batch > 4096) problems.batch = 'Batch size must be a whole number from 1 to 4096';
  if (!Number.isFinite(v.lr) || v.lr <= 0) problems.lr = 'Learning rate must be a positive number';
  if (!Number.isInteger(v.seeds) || v.seeds < 1 || v.seeds > 20) problems.seeds = 'Seeds must be a whole number from 1 to 20';
  if (!Number.isInteger(v.workers) || v.workers < 1 || v.workers > 8) problems.workers = 'Workers must be a whole number from 1 to 8';
  return problems;
}

const isNumber = (v: unknown) => typeof v === 'number' && Number.isFinite(v);
const isText = (v: unknown) => typeof v === 'string' && v.length <= 500;

export function StartForm() {
  const workspace = useApp((s) => s.workspace);
  const draft = useApp((s) => s.modelDraft);
  const setView = useApp((s) => s.setView);
  const cores = useApp((s) => s.engine?.cores);
  const start = useTraining((s) => s.start);
  // The draft survives a reload or a restart (ui-state.json); a number kept out of range shows its message.
  const [source, setSource] = usePersisted('training.source', 'generate:darcy:quick', isText);
  const [epochs, setEpochs] = usePersisted('training.epochs', PAPER_DEFAULTS.epochs, isNumber);
  const [batch, setBatch] = usePersisted('training.batch', PAPER_DEFAULTS.batchSize, isNumber);
  const [lr, setLr] = usePersisted('training.lr', PAPER_DEFAULTS.lr, isNumber);
  const [seeds, setSeeds] = usePersisted('training.seeds', 1, isNumber);
  const [workers, setWorkers] = usePersisted('training.workers', 1, isNumber);
  // the name typed for this data and model kind; another run starts with an empty field
  const [typed, setTyped] = usePersisted<TypedName>('training.runName', NO_NAME, validTypedName);
  const nameKey = runNameKey(source, draft.kind);
  const name = shownName(typed, nameKey);
  const modelProblems = trainModelProblems(draft);
  const [backend, setBackend] = usePersisted<BackendChoice>('training.backend', 'engine', oneOf(...BACKEND_CHOICES));
  const probe = useTorchProbe().value;
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const id = useId();
  const datasets = workspace?.datasets ?? [];
  useEffect(() => {
    // Prefer a dataset the workspace already holds (no generation needed).
    if (source.startsWith('generate:') && datasets.length > 0 && source === 'generate:darcy:quick') setSource(`dataset:${datasets[datasets.length - 1]!.id}`);
  }, [datasets.length]);

  const presets = useDatasetPresets().value;
  const [, genBenchmark, genPreset] = source.split(':');
  const presetSamples = presets?.find((p) => p.benchmark === genBenchmark)?.presets[genPreset ?? '']?.samples;
  const problems = problemsOf({ epochs, batch, lr, seeds, workers });
  // a torch choice kept from an earlier session on a machine where the probe now rules it out
  const backendProblem = probe ? choiceProblem(backend, probe) : null;
  if (backendProblem) problems.backend = `Backend: ${backendProblem}`;
  const torch = backend !== 'engine';
  const ok = Object.keys(problems).length === 0 && modelProblems.length === 0;
  const runConfig = () => ({ data: dataSpecFor(source, typeof presetSamples === 'number' ? presetSamples : undefined), model: draftToTrainModel(draft), epochs, batchSize: batch, optimizer: { lr }, ...(workers > 1 && !torch ? { workers } : {}), ...backendConfig(backend) });
  const submit = async () => {
    setBusy(true);
    setError(null);
    try {
      const config = runConfig();
      const dsName = source.startsWith('dataset:') ? datasets.find((d) => `dataset:${d.id}` === source)?.name ?? source.slice(8) : source.split(':').slice(1).join(' ');
      const auto = `${describeDraft(draft, 'runName')} on ${dsName}`;
      await start({ config: { name: name.trim() || auto, ...config }, seeds });
      setTyped(NO_NAME);
    } catch (e) {
      setError(errorText(e));
    } finally {
      setBusy(false);
    }
  };

  return (
    <div className="card" aria-labelledby={`${id}-t`} role="group">
      <h2 id={`${id}-t`}>New run</h2>
      <div className="field">
        <label htmlFor={`${id}-src`}>Data</label>
        <select id={`${id}-src`} data-testid="train-data" value={source} onChange={(e) => setSource(e.target.value)}>
          {datasets.length > 0 && (
            <optgroup label="Workspace datasets">
              {datasets.map((d) => <option key={d.id} value={`dataset:${d.id}`}>{d.name}</option>)}
            </optgroup>
          )}
          <optgroup label="Generate">
            <option value="generate:darcy:tiny">Darcy, tiny preset (seconds)</option>
            <option value="generate:darcy:quick">Darcy, quick preset</option>
          </optgroup>
        </select>
      </div>
      <p className="small">
        Model (from the Model view):{' '}
        {describeDraft(draft)}{' '}
        <button className="link" onClick={() => setView('model')}>Edit model</button>
      </p>
      {modelProblems.length > 0 && <p className="error-message" role="alert" data-testid="train-model-problem">The model cannot train: {modelProblems.join('; ')}. Fix it in the Model view.</p>}
      <div className="field">
        <label htmlFor={`${id}-name`}>Name (optional)</label>
        <input id={`${id}-name`} data-testid="train-name" value={name} onChange={(e) => setTyped({ name: e.target.value, for: nameKey })} />
      </div>
      <div className="field-pairs">
        <NumberField label="Epochs" value={epochs} onChange={setEpochs} min={1} max={100000} error={problems.epochs} testId="train-epochs" />
        <NumberField label="Batch size" value={batch} onChange={setBatch} min={1} max={4096} error={problems.batch} testId="train-batch" />
        <NumberField label="Learning rate" value={lr} onChange={setLr} min={0} step="any" error={problems.lr} testId="train-lr" />
        <NumberField label="Seeds (group)" value={seeds} onChange={setSeeds} min={1} max={20} error={problems.seeds} testId="train-seeds" />
        {/* Data-parallel threads per step (wasm/cpu): same results, more samples/s up to the core count. */}
        <NumberField label="Workers" value={workers} onChange={setWorkers} min={1} max={8} error={problems.workers} hint={`${cores ? `This machine has ${cores} cores` : 'Threads per step'}; same results as 1`} testId="train-workers" />
      </div>
      <BackendPicker value={backend} onChange={setBackend} probe={probe} />
      <div className="row">
        <button data-testid="train-start" onClick={submit} disabled={!ok || busy}>{busy ? 'Starting…' : 'Start training'}</button>
        <span className="muted small">AdamW, StepLR(5, 0.96), clip 1.0 (paper defaults)</span>
      </div>
      {torch
        ? <p className="small muted">A PyTorch run is timed by its first steps: the Queue card shows its ETA.</p>
        : <TimeEstimate config={ok ? runConfig() : null} />}
      {problems.backend && <p className="error-message" role="alert">{problems.backend}</p>}
      {error && <p className="error-message" role="alert" data-testid="train-start-error">Could not start the run: {error}</p>}
    </div>
  );
}
