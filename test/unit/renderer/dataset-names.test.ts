// A generation job's dataset named as the workspace lists it (the closing walk of research workflow II saw
// "— dataset darcy-87999a76a5bd" under the generate form): the hash only in the tooltip.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { WorkspaceSummary } from '../../../main/api/contract';
import { datasetNameById } from '../../../renderer/src/queries/dataset-names';

test('a dataset by id: its listed name; unknown to the workspace (not yet refreshed), the benchmark from the id, never the hash', () => {
  const ws = { datasets: [{ id: 'darcy-87999a76a5bd', name: 'Darcy · s = 29 (2D) · 20 samples (14/4/2)' }] } as unknown as WorkspaceSummary;
  assert.equal(datasetNameById(ws, 'darcy-87999a76a5bd'), 'Darcy · s = 29 (2D) · 20 samples (14/4/2)');
  assert.equal(datasetNameById(ws, 'navier-stokes-d1d98da24fb9'), 'Navier–Stokes');
  assert.equal(datasetNameById(null, 'darcy-0123456789ab'), 'Darcy');
});
