// The renderer's persisted state against the real host-side service (no engine needed): choices
// are saved into the workspace debounced, a new connection (a restarted host) restores them, and a
// damaged saved state leaves the defaults in place instead of a blank app.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import type { WorkbenchApi } from '../../../main/api/contract';
import { WorkbenchService } from '../../../main/services/workbench-service';
import { uiStatePath } from '../../../main/services/ui-state';
import { useApp } from '../../../renderer/src/stores/app-store';
import { useTraining } from '../../../renderer/src/stores/training-store';
import { DEFAULT_DRAFT, restoreDraft } from '../../../renderer/src/logic/model-draft';
import { oneOf, startPersistence, usePersistedStore } from '../../../renderer/src/stores/persisted-state';
import { isolateConfig, tempDir } from '../../helpers/env';
import { waitFor } from '../../helpers/wait';

const restore = isolateConfig();
const ws = tempDir('lino-ws-');
after(() => {
  useApp.setState({ api: null });
  ws.cleanup();
  restore();
});

function apiOn(workspace: string): WorkbenchApi {
  const service = new WorkbenchService({ host: 'browser', launcher: (() => { throw new Error('no engine in this test'); }) as never, workspace });
  return { call: (m, p) => service.call(m, p) as never, onEvent: (l) => service.onEvent(l) };
}

const saved = () => {
  try {
    return JSON.parse(readFileSync(uiStatePath(ws.path), 'utf8')).state;
  } catch {
    return null;
  }
};

test('choices are saved into the workspace and restored by a new connection', async () => {
  // The app passes views/index.ts VIEW_IDS; these are the ids this test restores.
  startPersistence(['workspace', 'runs']);
  useApp.setState({ api: apiOn(ws.path) });
  await waitFor(() => usePersistedStore.getState().loaded, 10_000, 'the saved state to load');
  useApp.getState().setView('runs');
  useApp.getState().setTheme('dark');
  useApp.getState().selectDataset('darcy-tiny-1');
  usePersistedStore.getState().setValue('datasets.split', 'test');
  await waitFor(() => saved()?.views?.['datasets.split'] === 'test' && saved()?.view === 'runs', 10_000, 'the state file');
  assert.equal(saved().theme, 'dark');
  assert.equal(saved().selectedDataset, 'darcy-tiny-1');

  // Back to defaults, then a fresh host on the same workspace.
  useApp.setState({ view: 'workspace', theme: 'light', selectedDataset: null });
  usePersistedStore.setState({ views: {} });
  useApp.setState({ api: apiOn(ws.path) });
  await waitFor(() => usePersistedStore.getState().loaded && useApp.getState().view === 'runs', 10_000, 'the restored view');
  assert.equal(useApp.getState().theme, 'dark');
  assert.equal(useApp.getState().selectedDataset, 'darcy-tiny-1');
  assert.equal(usePersistedStore.getState().views['datasets.split'], 'test');
  assert.equal(useTraining.getState().selectedRun, null, 'no run was selected');
});

test('the Model draft is saved with the views and restored by a new connection; a damaged one falls back field by field', async () => {
  await waitFor(() => usePersistedStore.getState().loaded, 10_000, 'the saved state to load');
  const mine = { ...DEFAULT_DRAFT, width: 12, depth: 2, kind: 'fno' as const };
  useApp.getState().setModelDraft(mine);
  await waitFor(() => saved()?.views?.['model.draft']?.width === 12, 10_000, 'the draft in the state file');
  useApp.getState().setModelDraft(DEFAULT_DRAFT);
  // (saving the defaults back must not win over the reload: stop the store from writing first)
  usePersistedStore.setState({ loaded: false });
  const file = JSON.parse(readFileSync(uiStatePath(ws.path), 'utf8'));
  file.state.views['model.draft'] = { ...mine, depth: 'deep', components: { reflection: false } };
  writeFileSync(uiStatePath(ws.path), JSON.stringify(file));
  useApp.setState({ api: apiOn(ws.path) });
  await waitFor(() => usePersistedStore.getState().loaded && useApp.getState().modelDraft.width === 12, 10_000, 'the restored draft');
  const d = useApp.getState().modelDraft;
  assert.equal(d.kind, 'fno');
  assert.equal(d.depth, DEFAULT_DRAFT.depth, 'a field of the wrong type falls back to its default');
  assert.deepEqual(d.components, { ...DEFAULT_DRAFT.components, reflection: false });
  assert.equal(restoreDraft('not a draft'), null);
});

test('a damaged state file leaves the defaults and no error; the next change repairs it', async () => {
  writeFileSync(uiStatePath(ws.path), '{"format":"lino-ui-state","version":1,"state":{"view":"ru');
  useApp.setState({ view: 'workspace', theme: 'light', errors: [] });
  useApp.setState({ api: apiOn(ws.path) });
  await waitFor(() => usePersistedStore.getState().loaded, 10_000, 'the load');
  assert.equal(useApp.getState().view, 'workspace');
  assert.deepEqual(useApp.getState().errors, []);
  useApp.getState().setView('model');
  await waitFor(() => saved()?.view === 'model', 10_000, 'the repaired state file');
});

test('bad fields of a saved state are skipped one by one', async () => {
  writeFileSync(uiStatePath(ws.path), JSON.stringify({ format: 'lino-ui-state', version: 1, state: { view: 'no-such-view', theme: 'dark', selectedDataset: 42 } }));
  useApp.setState({ view: 'datasets', theme: 'light' });
  useApp.setState({ api: apiOn(ws.path) });
  await waitFor(() => usePersistedStore.getState().loaded && useApp.getState().theme === 'dark', 10_000, 'the theme');
  assert.equal(useApp.getState().view, 'datasets', 'an unknown view is ignored');
  assert.equal(useApp.getState().selectedDataset, 'darcy-tiny-1', 'a dataset id that is not a string is ignored');
});

test('oneOf accepts only the listed values (restored values are untrusted)', () => {
  const split = oneOf('train', 'val', 'test');
  assert.deepEqual(['train', 'val', 'test', 'TRAIN', 1, null, undefined, {}].map(split), [true, true, true, false, false, false, false, false]);
});
