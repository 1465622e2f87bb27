// Export: what is in the workspace's exports/ folder (download in browser mode), the runs and
// seed-group tables as LaTeX (booktabs) and CSV, and where each paper-figure layout is made.
import { useApp } from '../../stores/app-store';
import { ExportFiles } from './export-files';
import { RunTables } from './run-tables';

/** The Export view: files, tables, and where the paper-figure layouts are. */
export function ExportView() {
  const setView = useApp((s) => s.setView);
  return (
    <section aria-labelledby="export-title">
      <h1 id="export-title">Export</h1>
      <div className="model-grid">
        <ExportFiles />
        <RunTables />
      </div>
      <div className="card" role="region" aria-labelledby="export-figures-title">
        <h2 id="export-figures-title">Figures</h2>
        <ul>
          <li>Every plot has an export bar underneath: PNG at a chosen width, height and scale, SVG, and vector PDF (text stays text).</li>
          <li>The ablation grid (error fields of the same samples for each variant, like the paper's Fig. 3) and its table: <button className="link" onClick={() => setView('ablations')}>Ablation view</button>.</li>
          <li>The rollout rows (reference and prediction over the rollout steps) and the step-wise error curve: <button className="link" onClick={() => setView('rollout')}>Rollout view</button>.</li>
          <li>The resolution sweep and field comparisons: <button className="link" onClick={() => setView('fields')}>Fields view</button>.</li>
        </ul>
      </div>
    </section>
  );
}
