// Datasets: generate a benchmark from a preset (progress, ETA, cancel through an engine job),
// list the workspace's datasets and preview any sample (heatmaps for 2D grids, lines for 1D).
import { useApp } from '../../stores/app-store';
import { OpenFileCard } from '../../components/open-file-card';
import { DatasetExportCard, DatasetStatsCard } from '../../components/dataset-tools';
import { GenerateCard } from './generate-card';
import { SamplePreview } from './sample-preview';
import { DatasetLabelCard } from './dataset-label-card';

export function DatasetsView() {
  const workspace = useApp((s) => s.workspace);
  const selected = useApp((s) => s.selectedDataset);
  const select = useApp((s) => s.selectDataset);
  const datasets = workspace?.datasets ?? [];
  const current = selected && datasets.some((d) => d.id === selected) ? selected : null;
  const entry = datasets.find((d) => d.id === current);
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
                  <button className={d.id === current ? 'nav active' : 'nav'} aria-pressed={d.id === current} onClick={() => select(d.id)} title={d.id}>
                    {d.name}
                  </button>
                </li>
              ))}
            </ul>
          )}
        </div>
      </div>
      {entry && <DatasetLabelCard dataset={entry} />}
      {current && <SamplePreview id={current} name={entry?.name ?? current} />}
      {current && (
        <div className="model-grid">
          <DatasetStatsCard id={current} />
          <DatasetExportCard id={current} />
        </div>
      )}
    </section>
  );
}
