// The one list of views: the navigation (app.tsx), the views a saved state may restore (passed to
// stores/persisted-state.ts by main.tsx), the view ids setView accepts (the ViewRegistry type of
// stores/app-store.ts) and the accessibility test's list of views to audit all come from it.
// A new view is one entry here plus its own file. Entries are in navigation order.
//
// Components load through React.lazy, so this list can be read without loading any view (the
// accessibility test reads it in Node, where plotly cannot load) and the stores the views use
// need not import it. The bundle is one file: loading is a resolved promise, not a fetch.
import { lazy, type ComponentType, type LazyExoticComponent } from 'react';

export interface ViewEntry<Id extends string = string> {
  /** Stable id: stored in the workspace's UI state and passed to setView. */
  id: Id;
  /** The navigation button's text and the view's h1. */
  label: string;
  component: LazyExoticComponent<ComponentType>;
}

/** One entry: `view(id, label, () => import('./x/x-view').then((m) => m.XView))`. */
function view<const Id extends string>(id: Id, label: string, load: () => Promise<ComponentType>): ViewEntry<Id> {
  return { id, label, component: lazy(async () => ({ default: await load() })) };
}

export const VIEWS = [
  view('workspace', 'Workspace', () => import('./workspace/workspace-view').then((m) => m.WorkspaceView)),
  view('datasets', 'Datasets', () => import('./datasets/datasets-view').then((m) => m.DatasetsView)),
  view('model', 'Model', () => import('./model/model-view').then((m) => m.ModelView)),
  view('training', 'Training', () => import('./training/training-view').then((m) => m.TrainingView)),
  view('gates', 'Gates', () => import('./gates/gates-view').then((m) => m.GatesView)),
  view('lightmaps', 'Light maps', () => import('./light-maps/light-maps-view').then((m) => m.LightMapsView)),
  view('fields', 'Fields', () => import('./fields/fields-view').then((m) => m.FieldsView)),
  view('playground', 'Playground', () => import('./playground/playground-view').then((m) => m.PlaygroundView)),
  view('rollout', 'Rollout', () => import('./rollout/rollout-view').then((m) => m.RolloutView)),
  view('diagnostics', 'Diagnostics', () => import('./diagnostics/diagnostics-view').then((m) => m.DiagnosticsView)),
  view('runs', 'Runs', () => import('./runs/runs-view').then((m) => m.RunsView)),
  view('sweeps', 'Sweeps', () => import('./sweeps/sweeps-view').then((m) => m.SweepsView)),
  view('ablations', 'Ablation', () => import('./ablation/ablation-view').then((m) => m.AblationView)),
  view('reproduce', 'Reproduce', () => import('./reproduce/reproduce-view').then((m) => m.ReproduceView)),
  view('export', 'Export', () => import('./export/export-view').then((m) => m.ExportView)),
];

export type ViewName = (typeof VIEWS)[number]['id'];

export const VIEW_IDS: readonly ViewName[] = VIEWS.map((v) => v.id);

declare module '../stores/app-store' {
  interface ViewRegistry {
    ids: (typeof VIEWS)[number]['id'];
  }
}
