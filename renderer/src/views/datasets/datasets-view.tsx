// Datasets: generate a benchmark from a preset (progress, ETA, cancel through an engine job),
// list the workspace's datasets and preview any sample (heatmaps for 2D grids, lines for 1D).
import { useEffect, useId, useMemo, useState } from 'react';
import type { Benchmark, DatasetSample, Result } from '../../../../main/api/contract';
import { useApp } from '../../store/app-store';
import { effectiveParams } from '../../store/generate-params';
import { Plot } from '../../plots/plot';
import { fieldAxes, heatmapTrace, lineTrace, type Trace } from '../../plots/traces';
import { isMeshDataset, meshPreviewPlots } from '../../plots/mesh-field';
import { OpenFileCard } from '../../components/open-file-card';
import { DatasetExportCard, DatasetStatsCard } from '../../components/dataset-tools';
import { oneOf, usePersisted } from '../../store/persisted-state';

type Preset = 'tiny' | 'quick' | 'paper';

function formatEta(s: number | null): string {
  if (s == null || !Number.isFinite(s)) return '';
  if (s < 90) return `${Math.round(s)} s left`;
  return `${Math.round(s / 60)} min left`;
}

function GenerateCard() {
  const api = useApp((s) => s.api);
  const jobs = useApp((s) => s.jobs);
  const [presets, setPresets] = useState<Result<'datasets.presets'> | null>(null);
  const [benchmark, setBenchmark] = useState<Benchmark>('darcy');
  const [preset, setPreset] = useState<Preset>('tiny');
  const [samples, setSamples] = useState('');
  const [seed, setSeed] = useState('0');
  const [error, setError] = useState<string | null>(null);
  const id = useId();

  useEffect(() => {
    if (!api) return;
    api.call('datasets.presets', {}).then(setPresets, (e: Error) => setError(`Could not list the presets: ${e.message}`));
  }, [api]);

  const params = presets?.find((p) => p.benchmark === benchmark)?.presets[preset] ?? null;
  useEffect(() => {
    if (params && typeof params.samples === 'number') setSamples(String(params.samples));
  }, [benchmark, preset, presets]);

  // What will be generated: the preset's parameters with the typed samples and seed in place.
  const shown = useMemo(() => (params ? effectiveParams(params, { samples, seed }) : []), [params, samples, seed]);

  const start = async () => {
    if (!api) return;
    setError(null);
    // A blank field means the preset's own value.
    const n = samples.trim() === '' ? undefined : Number(samples);
    const s = seed.trim() === '' ? undefined : Number(seed);
    if (n !== undefined && (!Number.isInteger(n) || n < 2)) return setError('Samples must be a whole number of at least 2 (or blank for the preset\'s)');
    if (s !== undefined && (!Number.isInteger(s) || s < 0)) return setError('Seed must be a whole number of at least 0 (or blank for 0)');
    try {
      await api.call('datasets.generate', { benchmark, preset, ...(n !== undefined ? { samples: n } : {}), ...(s !== undefined ? { seed: s } : {}) });
    } catch (e) {
      setError(`Could not start the generation: ${e instanceof Error ? e.message : String(e)}`);
    }
  };

  const genJobs = Object.values(jobs)
    .filter((j) => j.kind === 'generate')
    .sort((a, b) => (b.startedAt ?? '~').localeCompare(a.startedAt ?? '~'))
    .slice(0, 5);

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
      <div className="field">
        <label htmlFor={`${id}-n`}>Samples</label>
        <input id={`${id}-n`} type="number" min={2} step={1} value={samples} placeholder="preset" onChange={(e) => setSamples(e.target.value)} data-testid="gen-samples" />
      </div>
      <div className="field">
        <label htmlFor={`${id}-s`}>Seed</label>
        <input id={`${id}-s`} type="number" min={0} step={1} value={seed} onChange={(e) => setSeed(e.target.value)} />
      </div>
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
        <button onClick={start} data-testid="gen-start">Generate</button>
        {error && <span className="error-message" role="alert">{error}</span>}
      </div>
      <ul className="jobs" aria-label="Generation jobs">
        {genJobs.map((j) => (
          <li key={j.id} data-testid={`gen-job-${j.state}`}>
            <span>{j.label}: {j.state}</span>
            {(j.state === 'running' || j.state === 'queued') && (
              <>
                {' '}
                <progress max={1} value={j.progress} aria-label={`${j.label} progress`} /> {Math.round(j.progress * 100)}% {formatEta(j.etaSeconds)}
                <button className="link" onClick={() => api?.call('jobs.cancel', { id: j.id })}>Cancel</button>
                {j.message && <div className="muted small">{j.message}</div>}
              </>
            )}
            {j.state === 'done' && j.result != null && <span className="muted"> — dataset {(j.result as { id: string }).id}</span>}
            {j.error && j.state !== 'cancelled' && <div className="error-message">{j.error}</div>}
          </li>
        ))}
      </ul>
    </div>
  );
}

function SamplePreview({ id }: { id: string }) {
  const api = useApp((s) => s.api);
  const [split, setSplit] = usePersisted<'train' | 'val' | 'test'>('datasets.previewSplit', 'val', oneOf('train', 'val', 'test'));
  const [index, setIndex] = useState(0);
  const [sample, setSample] = useState<DatasetSample | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [xc, setXc] = useState(0);
  const [yc, setYc] = useState(0);
  const fid = useId();

  useEffect(() => {
    setIndex(0);
    setXc(0);
    setYc(0);
  }, [id]);
  useEffect(() => {
    if (!api) return;
    let live = true;
    api.call('datasets.sample', { id, split, index }).then(
      (s) => {
        if (!live) return;
        setSample(s);
        setError(null);
      },
      (e: Error) => live && setError(e.message),
    );
    return () => {
      live = false;
    };
  }, [api, id, split, index]);

  const plots = useMemo(() => {
    if (!sample) return [];
    const x = sample.x[Math.min(xc, sample.x.length - 1)];
    const y = sample.y[Math.min(yc, sample.y.length - 1)];
    if (!x || !y) return [];
    if (sample.grid.length === 1) {
      const data: Trace[] = [lineTrace({ y: x.values, name: `input ${x.name}` }), lineTrace({ y: y.values, name: `target ${y.name}` })];
      return [{ key: 'lines', title: `Sample ${sample.index} (${sample.split}): input and target`, data, layout: { xaxis: { title: 'Grid point' }, yaxis: { title: 'Value' } } }];
    }
    if (sample.grid.length === 2 && sample.x.length >= 2 && isMeshDataset(sample.benchmark, sample.x.map((c) => c.name))) return meshPreviewPlots(sample, y);
    const [nx, ny] = [sample.grid[0]!, sample.grid[1]!];
    // The same orientation as every other field plot (plots/traces.ts fieldZ).
    const panel = (c: { name: string; values: number[] }, role: string, scale: 'viridis' | 'cividis') => ({
      key: `${role}-${c.name}`,
      title: `${role} ${c.name}, sample ${sample.index} (${sample.split})`,
      data: [heatmapTrace({ values: c.values, nx, ny, scale, colorbarTitle: c.name })],
      layout: { ...fieldAxes('domain'), margin: { l: 50, r: 10, t: 36, b: 40 } },
    });
    return [panel(x, 'Input', 'viridis'), panel(y, 'Target', 'viridis')];
  }, [sample, xc, yc]);

  return (
    <div className="card" role="region" aria-labelledby={`${fid}-t`} data-testid="sample-preview">
      <h2 id={`${fid}-t`}>Preview: {id}</h2>
      <div className="row wrap">
        <label htmlFor={`${fid}-split`}>Split</label>
        <select id={`${fid}-split`} value={split} onChange={(e) => { setSplit(e.target.value as typeof split); setIndex(0); }}>
          <option value="train">train{sample ? ` (${sample.counts.train})` : ''}</option>
          <option value="val">validation{sample ? ` (${sample.counts.val})` : ''}</option>
          <option value="test">test{sample ? ` (${sample.counts.test})` : ''}</option>
        </select>
        <label htmlFor={`${fid}-i`}>Sample</label>
        <input id={`${fid}-i`} type="number" min={0} max={sample ? sample.count - 1 : undefined} value={index} onChange={(e) => setIndex(Math.max(0, Math.floor(Number(e.target.value) || 0)))} data-testid="sample-index" />
        <button onClick={() => setIndex((i) => Math.max(0, i - 1))} disabled={index === 0}>Previous</button>
        <button onClick={() => setIndex((i) => i + 1)} disabled={!!sample && index >= sample.count - 1}>Next</button>
        {sample && sample.x.length > 1 && (
          <>
            <label htmlFor={`${fid}-xc`}>Input channel</label>
            <select id={`${fid}-xc`} value={xc} onChange={(e) => setXc(Number(e.target.value))}>
              {sample.x.map((c, i) => <option key={c.name + i} value={i}>{c.name}</option>)}
            </select>
          </>
        )}
        {sample && sample.y.length > 1 && (
          <>
            <label htmlFor={`${fid}-yc`}>Target channel</label>
            <select id={`${fid}-yc`} value={yc} onChange={(e) => setYc(Number(e.target.value))}>
              {sample.y.map((c, i) => <option key={c.name + i} value={i}>{c.name}</option>)}
            </select>
          </>
        )}
      </div>
      {error && <p className="error-message" data-testid="sample-error">{error}</p>}
      {sample && (
        <p className="muted small" data-testid="sample-info">
          Grid {sample.grid.join(' × ')}, {sample.count} {sample.split} rows, source sample {sample.sourceIndex}; inputs {sample.x.map((c) => c.name).join(', ')}; target {sample.y.map((c) => c.name).join(', ')} (physical units).
          {sample.warnings.length > 0 && <span className="warn"> {sample.warnings.join(' ')}</span>}
        </p>
      )}
      {sample && (
        <table className="stats-table small" data-testid="dataset-stats">
          <caption className="muted">Dataset statistics (training split{sample.stats.normalized ? ', used by the normalizer' : ''})</caption>
          <thead>
            <tr><th scope="col">Field</th><th scope="col">mean</th><th scope="col">std</th><th scope="col">min</th><th scope="col">max</th></tr>
          </thead>
          <tbody>
            {(['x', 'y'] as const).map((k) => (
              <tr key={k}>
                <th scope="row">{k === 'x' ? `input (${sample.x.map((c) => c.name).join(', ')})` : `target (${sample.y.map((c) => c.name).join(', ')})`}</th>
                {(['mean', 'std', 'min', 'max'] as const).map((f) => <td key={f}>{sample.stats[k][f].toPrecision(4)}</td>)}
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <div className="plot-grid">
        {plots.map((p) => (
          <Plot key={p.key} title={p.title} data={p.data} layout={p.layout} height={360} testId={`preview-${p.key.split('-')[0]!.toLowerCase()}`} />
        ))}
      </div>
    </div>
  );
}

export function DatasetsView() {
  const workspace = useApp((s) => s.workspace);
  const selected = useApp((s) => s.selectedDataset);
  const select = useApp((s) => s.selectDataset);
  const datasets = workspace?.datasets ?? [];
  const current = selected && datasets.some((d) => d.id === selected) ? selected : null;
  return (
    <section aria-labelledby="datasets-title">
      <h1 id="datasets-title">Datasets</h1>
      <div className="model-grid">
        <GenerateCard />
        <OpenFileCard />
        <div className="card" role="region" aria-labelledby="ds-list-title">
          <h2 id="ds-list-title">In this workspace</h2>
          {datasets.length === 0 ? (
            <p data-testid="datasets-empty">No datasets yet: generate one.</p>
          ) : (
            <ul className="file-list" data-testid="datasets-list">
              {datasets.map((d) => (
                <li key={d.id}>
                  <button className={d.id === current ? 'nav active' : 'nav'} aria-pressed={d.id === current} onClick={() => select(d.id)}>
                    {d.name}
                  </button>
                </li>
              ))}
            </ul>
          )}
        </div>
      </div>
      {current && <SamplePreview id={current} />}
      {current && (
        <div className="model-grid">
          <DatasetStatsCard id={current} />
          <DatasetExportCard id={current} />
        </div>
      )}
    </section>
  );
}
