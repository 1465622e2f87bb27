// Generate a benchmark from a preset (an engine job with progress, ETA and cancel); the preset's
// parameters are shown with the typed samples, seed and resolution in place.
import { useEffect, useId, useMemo, useState } from 'react';
import type { Benchmark } from '../../../../main/api/contract';
import { useApp } from '../../stores/app-store';
import { checkGenerate, effectiveParams, presetSamplesOnChange } from '../../logic/generate-params';
import { oneOf, usePersisted } from '../../stores/persisted-state';
import { generateDataset, useDatasetPresets } from '../../queries/datasets';
import { datasetNameById } from '../../queries/dataset-names';
import { errorText } from '../../api/error-text';
import { NumberField, parseNumberText } from '../../components/number-field';

type Preset = 'tiny' | 'quick' | 'paper';

function formatEta(s: number | null): string {
  if (s == null || !Number.isFinite(s)) return '';
  if (s < 90) return `${Math.round(s)} s left`;
  return `${Math.round(s / 60)} min left`;
}

const asText = (v: number) => (Number.isNaN(v) ? '' : String(v));
const isShortText = (v: unknown) => typeof v === 'string' && v.length <= 40;

export function GenerateCard() {
  const presetList = useDatasetPresets();
  const presets = presetList.value;
  // What was typed stays across a view switch, a reload or a restart (ui-state.json), as in the other views.
  const [benchmark, setBenchmark] = usePersisted<Benchmark>('datasets.gen.benchmark', 'darcy', oneOf('darcy', 'burgers', 'navier-stokes', 'airfoil'));
  const [preset, setPreset] = usePersisted<Preset>('datasets.gen.preset', 'tiny', oneOf('tiny', 'quick', 'paper'));
  const [samples, setSamples] = usePersisted('datasets.gen.samples', '', isShortText);
  const [seed, setSeed] = usePersisted('datasets.gen.seed', '0', isShortText);
  const [resolution, setResolution] = usePersisted('datasets.gen.resolution', '', isShortText);
  const [train, setTrain] = usePersisted('datasets.gen.train', '', isShortText);
  const [val, setVal] = usePersisted('datasets.gen.val', '', isShortText);
  const [test, setTest] = usePersisted('datasets.gen.test', '', isShortText);
  const [splitSeed, setSplitSeed] = usePersisted('datasets.gen.splitSeed', '', isShortText);
  // the benchmark and preset whose sample count the Samples field was filled with
  const [samplesFor, setSamplesFor] = usePersisted('datasets.gen.samplesFor', '', isShortText);
  const [error, setError] = useState<string | null>(null);
  const id = useId();

  const params = presets?.find((p) => p.benchmark === benchmark)?.presets[preset] ?? null;
  useEffect(() => {
    // a new benchmark or preset fills in its sample count; coming back to the view keeps the typed one
    const next = presetSamplesOnChange(samplesFor, `${benchmark}:${preset}`, params?.samples);
    if (next === null) return;
    setSamples(next);
    setSamplesFor(`${benchmark}:${preset}`);
  }, [benchmark, preset, presets]);

  // What will be generated: the preset's parameters with the typed samples, seed and resolution in place.
  const shown = useMemo(() => (params ? effectiveParams(params, { samples, seed, resolution }, preset) : []), [params, samples, seed, resolution, preset]);
  // Checked as typed: each field's problem beside it; warnings (too small to split, disk) below.
  const check = checkGenerate(benchmark, { samples, seed, resolution, train, val, test, splitSeed }, {
    ...(typeof params?.samples === 'number' ? { samples: params.samples } : {}),
    ...(typeof params?.resolution === 'number' ? { resolution: params.resolution } : {}),
  });
  const blocked = Object.keys(check.problems).length > 0;

  const start = async () => {
    setError(null);
    // A blank field means the preset's own value.
    if (blocked) return;
    try {
      await generateDataset({ benchmark, preset, ...check.values });
    } catch (e) {
      setError(`Could not start the generation: ${errorText(e)}`);
    }
  };

  return (
    <div className="card" role="region" aria-labelledby={`${id}-t`}>
      <h2 id={`${id}-t`}>Generate a benchmark</h2>
      <div className="field">
        <label htmlFor={`${id}-b`}>Benchmark</label>
        <select id={`${id}-b`} value={benchmark} onChange={(e) => setBenchmark(e.target.value as Benchmark)} data-testid="gen-benchmark">
          <option value="darcy">Darcy flow (2D)</option>
          <option value="burgers">Burgers (1D)</option>
          <option value="navier-stokes">Navier–Stokes (2D, time)</option>
          <option value="airfoil">Airfoil (2D mesh)</option>
        </select>
      </div>
      <div className="field">
        <label htmlFor={`${id}-p`}>Preset</label>
        <select id={`${id}-p`} value={preset} onChange={(e) => setPreset(e.target.value as Preset)} data-testid="gen-preset">
          <option value="tiny">tiny (seconds, for trying things)</option>
          <option value="quick">quick (minutes)</option>
          <option value="paper">paper (the published sizes)</option>
        </select>
      </div>
      <NumberField label="Samples" value={parseNumberText(samples)} onChange={(v) => setSamples(asText(v))} min={2} placeholder="preset" testId="gen-samples" error={check.problems.samples} />
      <NumberField label="Seed" value={parseNumberText(seed)} onChange={(v) => setSeed(asText(v))} min={0} error={check.problems.seed} />
      <NumberField label="Resolution (points per axis)" value={parseNumberText(resolution)} onChange={(v) => setResolution(asText(v))} min={8} placeholder="preset" testId="gen-resolution" error={check.problems.resolution} />
      <NumberField label="Train samples" value={parseNumberText(train)} onChange={(v) => setTrain(asText(v))} min={1} placeholder="80 %" testId="gen-train" error={check.problems.train} />
      <NumberField label="Validation samples" value={parseNumberText(val)} onChange={(v) => setVal(asText(v))} min={0} placeholder="the rest" testId="gen-val" error={check.problems.val} />
      <NumberField label="Test samples" value={parseNumberText(test)} onChange={(v) => setTest(asText(v))} min={0} placeholder="10 %" testId="gen-test" error={check.problems.test} />
      <NumberField label="Split seed" value={parseNumberText(splitSeed)} onChange={(v) => setSplitSeed(asText(v))} min={0} placeholder="42" testId="gen-split-seed" error={check.problems.splitSeed} />
      {check.warnings.length > 0 && (
        <ul className="warnings small" data-testid="gen-warnings">
          {check.warnings.map((w) => <li key={w}>{w}</li>)}
        </ul>
      )}
      {params && (
        <details>
          <summary>Preset parameters</summary>
          <dl className="stats small" data-testid="gen-params">
            {shown.map(([k, v, preset]) => (
              <div key={k} className="contents"><dt>{k}</dt><dd data-testid={`gen-param-${k}`}>{v}{preset !== undefined && <span className="muted"> (preset {preset})</span>}</dd></div>
            ))}
          </dl>
        </details>
      )}
      <div className="row">
        <button onClick={start} disabled={blocked} data-testid="gen-start">Generate</button>
        {presetList.error && <span className="error-message" role="alert">Could not list the presets: {presetList.error}</span>}
        {error && <span className="error-message" role="alert">{error}</span>}
      </div>
      <GenerationJobs />
    </div>
  );
}

/** The last five generation jobs: state, progress with ETA and Cancel, the dataset made. */
function GenerationJobs() {
  const jobs = useApp((s) => s.jobs);
  const cancelJob = useApp((s) => s.cancelJob);
  const workspace = useApp((s) => s.workspace);
  const genJobs = Object.values(jobs)
    .filter((j) => j.kind === 'generate')
    .sort((a, b) => (b.startedAt ?? '~').localeCompare(a.startedAt ?? '~'))
    .slice(0, 5);
  return (
    <ul className="jobs" aria-label="Generation jobs">
      {genJobs.map((j) => (
        <li key={j.id} data-testid={`gen-job-${j.state}`}>
          <span>{j.label}: {j.state}</span>
          {(j.state === 'running' || j.state === 'queued') && (
            <>
              {' '}
              <progress max={1} value={j.progress} aria-label={`${j.label} progress`} /> {Math.round(j.progress * 100)}% {formatEta(j.etaSeconds)}
              <button className="link" onClick={() => void cancelJob(j.id)}>Cancel</button>
              {j.message && <div className="muted small">{j.message}</div>}
            </>
          )}
          {j.state === 'done' && j.result != null && <span className="muted" title={(j.result as { id: string }).id}> — dataset {datasetNameById(workspace, (j.result as { id: string }).id)}</span>}
          {j.error && j.state !== 'cancelled' && <div className="error-message">{j.error}</div>}
        </li>
      ))}
    </ul>
  );
}
