// The corner pixel every |error| map of a generated Darcy set shows comes from the reference (FNO's
// spline extrapolated onto the boundary without clamping); the reason was only in the manifest.
// referenceNote reads it from the manifest, the workspace summary carries it to the views' captions.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { referenceNote, UNCLAMPED_SPLINE_NOTE } from '../../../main/api/reference-note';
import { Workspace } from '../../../main/workspace/workspace';
import { tempDir } from '../../helpers/env';

const ws = tempDir('lino-ws-');
after(() => ws.cleanup());
const manifest = (params: Record<string, unknown>) => ({ format: 'lino-dataset', version: 1, benchmark: params.benchmark, grid: [29, 29], counts: { train: 4, val: 2, test: 0 }, source: { kind: 'generated', benchmark: params.benchmark, generator: { params } } });

test('referenceNote: a generated Darcy set with the unclamped spline has the corner caveat; clamped, other benchmarks and garbage have none', () => {
  assert.equal(referenceNote(manifest({ benchmark: 'darcy', resolution: 29, clamp: false })), UNCLAMPED_SPLINE_NOTE);
  assert.match(UNCLAMPED_SPLINE_NOTE, /corner .*params\.clamp = false.*not the model's/);
  assert.equal(referenceNote(manifest({ benchmark: 'darcy', resolution: 29, clamp: true })), null);
  assert.equal(referenceNote(manifest({ benchmark: 'burgers', resolution: 64 })), null);
  for (const junk of [null, 3, 'x', [], { source: 'x' }, { source: { generator: { params: [] } } }]) assert.equal(referenceNote(junk), null);
});

test('the workspace summary carries the caveat of each dataset that has one', () => {
  for (const [id, params] of [['darcy-aaaaaaaaaaaa', { benchmark: 'darcy', clamp: false }], ['darcy-bbbbbbbbbbbb', { benchmark: 'darcy', clamp: true }]] as const) {
    mkdirSync(join(ws.path, 'datasets', id), { recursive: true });
    writeFileSync(join(ws.path, 'datasets', id, 'manifest.json'), JSON.stringify(manifest(params)));
  }
  const listed = Workspace.open(ws.path).summary().datasets;
  assert.deepEqual(listed.map((d) => [d.id, d.referenceNote ?? null]), [['darcy-aaaaaaaaaaaa', UNCLAMPED_SPLINE_NOTE], ['darcy-bbbbbbbbbbbb', null]]);
});
