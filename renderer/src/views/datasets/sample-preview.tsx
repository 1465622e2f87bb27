// A dataset's sample preview: split, sample index and channels; the sample's grid and statistics;
// its input and target drawn as heatmaps (2D grids), lines (1D) or on the mesh.
import { useEffect, useId, useMemo, useState } from 'react';
import type { DatasetSample } from '../../../../main/api/contract';
import { oneOf, usePersisted } from '../../stores/persisted-state';
import { useDatasetSample } from '../../queries/datasets';
import { Plot } from '../../plots/plot';
import { NumberField } from '../../components/number-field';
import { samplePlots } from './sample-plots';

export function SamplePreview({ id, name }: { id: string; name: string }) {
  const [split, setSplit] = usePersisted<'train' | 'val' | 'test'>('datasets.previewSplit', 'val', oneOf('train', 'val', 'test'));
  const [index, setIndex] = useState(0);
  const [xc, setXc] = useState(0);
  const [yc, setYc] = useState(0);
  const fid = useId();
  const { value: sample, error } = useDatasetSample(id, split, index);

  useEffect(() => {
    setIndex(0);
    setXc(0);
    setYc(0);
  }, [id]);
  const plots = useMemo(() => (sample ? samplePlots(sample, xc, yc) : []), [sample, xc, yc]);

  return (
    <div className="card" role="region" aria-labelledby={`${fid}-t`} data-testid="sample-preview">
      <h2 id={`${fid}-t`}>Preview: {name}</h2>
      <div className="row wrap">
        <label htmlFor={`${fid}-split`}>Split</label>
        <select id={`${fid}-split`} value={split} onChange={(e) => { setSplit(e.target.value as typeof split); setIndex(0); }}>
          <option value="train">train{sample ? ` (${sample.counts.train})` : ''}</option>
          <option value="val">validation{sample ? ` (${sample.counts.val})` : ''}</option>
          <option value="test">test{sample ? ` (${sample.counts.test})` : ''}</option>
        </select>
        <NumberField label="Sample" inline value={index} onChange={(v) => setIndex(Math.max(0, Math.floor(v) || 0))} min={0} max={sample ? sample.count - 1 : undefined} testId="sample-index" />
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
      {sample && <SampleInfo sample={sample} />}
      <div className="plot-grid">
        {plots.map((p) => (
          <Plot key={p.key} title={p.title} data={p.data} layout={p.layout} height={360} testId={`preview-${p.key.split('-')[0]!.toLowerCase()}`} />
        ))}
      </div>
    </div>
  );
}

/** The sample's grid and source, and the dataset's training statistics. */
function SampleInfo({ sample }: { sample: DatasetSample }) {
  return (
    <>
      <p className="muted small" data-testid="sample-info">
        Grid {sample.grid.join(' × ')}, {sample.count} {sample.split} rows, source sample {sample.sourceIndex}; inputs {sample.x.map((c) => c.name).join(', ')}; target {sample.y.map((c) => c.name).join(', ')} (physical units).
        {sample.warnings.length > 0 && <span className="warn"> {sample.warnings.join(' ')}</span>}
      </p>
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
    </>
  );
}
