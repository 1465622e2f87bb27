import { useEffect, type ReactElement } from 'react';
import { useApp, type ViewName } from './store/app-store';
import { WorkspaceView } from './views/workspace-view';
import { ModelView } from './views/model-view';
import { DatasetsView } from './views/datasets-view';
import { TrainingView } from './views/training-view';
import { GatesView } from './views/gates-view';
import { LightMapsView } from './views/light-maps-view';
import { RolloutView } from './views/rollout-view';
import { RunsView } from './views/runs-view';
import { FieldsView } from './views/fields-view';
import { AblationView } from './views/ablation-view';
import { ExportView } from './views/export-view';
import { ReproduceView } from './views/reproduce-view';
import { ErrorBanner } from './components/error-banner';
import { EngineStatusBar } from './components/engine-status';
import { ViewBoundary } from './components/view-boundary';

// Views land here as they are built (issue 6 adds datasets, model, training, gates, ...).
const VIEWS: { name: ViewName; label: string; render: () => ReactElement }[] = [
  { name: 'workspace', label: 'Workspace', render: () => <WorkspaceView /> },
  { name: 'datasets', label: 'Datasets', render: () => <DatasetsView /> },
  { name: 'model', label: 'Model', render: () => <ModelView /> },
  { name: 'training', label: 'Training', render: () => <TrainingView /> },
  { name: 'gates', label: 'Gates', render: () => <GatesView /> },
  { name: 'lightmaps', label: 'Light maps', render: () => <LightMapsView /> },
  { name: 'fields', label: 'Fields', render: () => <FieldsView /> },
  { name: 'rollout', label: 'Rollout', render: () => <RolloutView /> },
  { name: 'runs', label: 'Runs', render: () => <RunsView /> },
  { name: 'ablations', label: 'Ablation', render: () => <AblationView /> },
  { name: 'reproduce', label: 'Reproduce', render: () => <ReproduceView /> },
  { name: 'export', label: 'Export', render: () => <ExportView /> },
];

export function App() {
  const view = useApp((s) => s.view);
  const setView = useApp((s) => s.setView);
  const theme = useApp((s) => s.theme);
  const setTheme = useApp((s) => s.setTheme);
  useEffect(() => {
    document.documentElement.dataset.theme = theme;
  }, [theme]);
  const current = VIEWS.find((v) => v.name === view) ?? VIEWS[0];
  return (
    <div className="shell">
      <nav className="sidebar" aria-label="Views">
        <div className="brand">LiNO Workbench</div>
        <ul>
          {VIEWS.map((v) => (
            <li key={v.name}>
              <button className={v.name === current.name ? 'nav active' : 'nav'} aria-current={v.name === current.name ? 'page' : undefined} onClick={() => setView(v.name)}>
                {v.label}
              </button>
            </li>
          ))}
        </ul>
        <button className="theme-toggle" onClick={() => setTheme(theme === 'light' ? 'dark' : 'light')}>
          {theme === 'light' ? 'Dark theme' : 'Light theme'}
        </button>
      </nav>
      <main className="content" id="main">
        <ErrorBanner />
        <ViewBoundary name={current.label}>{current.render()}</ViewBoundary>
      </main>
      <EngineStatusBar />
    </div>
  );
}
