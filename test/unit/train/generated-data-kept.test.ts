// A run's generated data (quick start: data { kind: 'generate' }) is kept in the workspace's
// datasets/ so the Datasets view lists it, once per distinct data; evaluations' other grids and
// grouped runs (seeds, ablations) are not (keepGenerated unset).
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { loadTrainData } from '../../../main/train/data-source';
import { Workspace } from '../../../main/workspace/workspace';
import { tempDir } from '../../helpers/env';

const ws = tempDir('lino-ws-');
after(() => ws.cleanup());

test('generated training data land in datasets/ under the id the run records, and list with a human name', { timeout: 60_000 }, async () => {
  Workspace.open(ws.path);
  const spec = { kind: 'generate', benchmark: 'darcy', preset: 'tiny', samples: 4, train: 2, val: 1, test: 1, generateResolution: 12 } as const;
  await loadTrainData(spec as never, { workspace: ws.path });
  assert.deepEqual(readdirSync(join(ws.path, 'datasets')), [], 'not kept unless asked');
  const data = await loadTrainData(spec as never, { workspace: ws.path, keepGenerated: true });
  const id = data.manifest.id!;
  assert.ok(existsSync(join(ws.path, 'datasets', id, 'manifest.json')), `datasets/${id}`);
  const listed = Workspace.open(ws.path).summary().datasets;
  assert.deepEqual(listed.map((d) => [d.id, d.name]), [[id, 'Darcy · s = 12 (2D) · 4 samples (2/1/1)']]);
  // The same spec again (a second quick start): the same arrays, kept once, recorded under that id.
  const again = await loadTrainData(spec as never, { workspace: ws.path, keepGenerated: true });
  assert.equal(again.manifest.id, id);
  assert.equal(readdirSync(join(ws.path, 'datasets')).length, 1);
});
