// Datasets by human name: the workspace summary names each dataset by benchmark, resolution,
// samples and split plus the user's label (datasets.label), never by its hash; hostile labels and
// unknown ids are refused naming the field, and the manifest is never rewritten.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ApiError, type WorkspaceSummary } from '../../../main/api/contract';
import { datasetDisplayName } from '../../../main/api/dataset-name';
import { WorkbenchService } from '../../../main/services/workbench-service';
import { isolateConfig, tempDir } from '../../helpers/env';

const restore = isolateConfig();
const ws = tempDir('lino-ws-');
after(() => {
  ws.cleanup();
  restore();
});
const noEngine = () => {
  throw new Error('datasets.label must not reach the engine');
};
const service = new WorkbenchService({ host: 'browser', launcher: noEngine as never, workspace: ws.path });
const refused = (field: string, code: string) => (e: unknown) => e instanceof ApiError && e.code === code && new RegExp(`^${field}(\\.|$)`).test(String((e.details as { field?: string }).field));

test('dataset display names: benchmark, resolution, samples and split, label first; the hash never', () => {
  assert.equal(datasetDisplayName({ id: 'darcy-beababc8a08c', benchmark: 'darcy', grid: [29, 29], counts: { train: 8, val: 2, test: 2 } }), 'Darcy · s = 29 (2D) · 12 samples (8/2/2)');
  assert.equal(datasetDisplayName({ id: 'navier-stokes-0123456789ab', grid: [16, 16], counts: { train: 3, val: 2, test: 0 }, label: 'tiny NS' }), 'tiny NS — Navier–Stokes · s = 16 (2D) · 5 samples (3/2/0)');
  assert.equal(datasetDisplayName({ id: 'burgers-0123456789ab', grid: [128] }), 'Burgers · s = 128');
  // a Playground sample is its train and its val split: one sample, the user's label first
  assert.equal(datasetDisplayName({ id: 'pg-stroke', benchmark: 'darcy', grid: [29, 29], counts: { train: 1, val: 1, test: 0 }, samples: 1, label: 'pg-stroke' }), 'pg-stroke — Darcy · s = 29 (2D) · 1 sample (1/1/0, shared by the splits)');
  assert.equal(datasetDisplayName({ id: 'darcy-x', benchmark: 'darcy', grid: [29, 29], counts: { train: 1, val: 0, test: 0 }, samples: 1024 }), 'Darcy · s = 29 (2D) · 1 sample (1/0/0)');
});

test('datasets.label: the summary lists the human name; a label is set, shown and cleared; the manifest stays as it was', async () => {
  const dir = join(ws.path, 'datasets', 'darcy-beababc8a08c');
  mkdirSync(dir, { recursive: true });
  const manifest = JSON.stringify({ format: 'lino-dataset', version: 1, id: 'darcy-beababc8a08c', benchmark: 'darcy', grid: [29, 29], counts: { train: 8, val: 2, test: 0 } });
  writeFileSync(join(dir, 'manifest.json'), manifest);
  const listed = ((await service.call('workspace.get', {})) as WorkspaceSummary).datasets;
  // no generator recorded in this manifest: it can only be resampled at another grid, and says why
  const { notSolvable, ...rest } = listed[0]!;
  assert.deepEqual([rest], [{ id: 'darcy-beababc8a08c', name: 'Darcy · s = 29 (2D) · 10 samples (8/2/0)', benchmark: 'darcy', grid: [29, 29], counts: { train: 8, val: 2, test: 0 } }]);
  assert.equal(listed.length, 1);
  assert.match(notSolvable ?? '', /darcy-beababc8a08c.*cannot be solved again at another grid; it can only be resampled/);
  const after1 = (await service.call('datasets.label', { id: 'darcy-beababc8a08c', label: '  coarse  ' })) as WorkspaceSummary;
  assert.equal(after1.datasets[0]!.name, 'coarse — Darcy · s = 29 (2D) · 10 samples (8/2/0)');
  assert.equal(after1.datasets[0]!.label, 'coarse');
  assert.equal(readFileSync(join(dir, 'manifest.json'), 'utf8'), manifest);
  const cleared = (await service.call('datasets.label', { id: 'darcy-beababc8a08c', label: '' })) as WorkspaceSummary;
  assert.equal(cleared.datasets[0]!.name, 'Darcy · s = 29 (2D) · 10 samples (8/2/0)');
});

test('datasets.label refuses unknown or path-like ids, long labels and control characters', async () => {
  await assert.rejects(service.call('datasets.label', { id: 'darcy-000000000000', label: 'x' }), refused('id', 'not_found'));
  await assert.rejects(service.call('datasets.label', { id: '../runs', label: 'x' }), refused('id', 'invalid_params'));
  await assert.rejects(service.call('datasets.label', { id: 'darcy-beababc8a08c', label: 'x'.repeat(81) }), refused('label', 'invalid_params'));
  await assert.rejects(service.call('datasets.label', { id: 'darcy-beababc8a08c', label: 'a\nb' }), refused('label', 'invalid_params'));
});

test('the target channel has one name: Fields use the published files\' names, as the Datasets view lists them, except the vorticity, which reads w', async () => {
  const { DEFAULT_VARIABLES } = await import('../../../main/data/pipeline');
  const { TARGET_NAMES } = await import('../../../main/api/dataset-name');
  const { runTargetSymbol } = await import('../../../renderer/src/queries/dataset-names');
  for (const [b, v] of Object.entries(DEFAULT_VARIABLES)) if (v) assert.equal(TARGET_NAMES[b], v.target, b);
  assert.equal(runTargetSymbol({ data: { kind: 'generate', benchmark: 'darcy', preset: 'tiny' } }), 'sol');
  assert.equal(runTargetSymbol({ data: { kind: 'dataset', id: 'darcy-0123456789ab' } }), 'sol');
  assert.equal(runTargetSymbol({ data: { kind: 'file', benchmark: 'custom', path: '/x.h5', target: 'rho' } }), 'rho');
  // the Navier–Stokes files call the vorticity u; its colour bars read w
  assert.equal(runTargetSymbol({ data: { kind: 'generate', benchmark: 'navier-stokes', preset: 'tiny' } }), 'w');
  assert.equal(runTargetSymbol({ data: { kind: 'dataset', id: 'navier-stokes-0123456789ab' } }), 'w');
});
