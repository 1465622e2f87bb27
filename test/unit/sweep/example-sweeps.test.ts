// The sweep files shipped in examples/ stay valid sweeps (docs/training.md re-runs them): each is
// parsed as `lino sweep --config` does, and the Darcy one is the 2 x 2 x 2 grid the docs describe.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { parseSweepConfig } from '../../../main/sweep/sweep-config';
import { gridSize } from '../../../main/sweep/space';

const dir = join(import.meta.dirname, '../../../examples');

test('every examples/*sweep*.json is a valid sweep', () => {
  const files = readdirSync(dir).filter((n) => /sweep.*\.json$/.test(n));
  assert.ok(files.length >= 1);
  for (const f of files) parseSweepConfig(JSON.parse(readFileSync(join(dir, f), 'utf8')), f);
});

test("the closing note's Darcy sweep: width x learning rate x scattering, 8 configurations, one seed", () => {
  const s = parseSweepConfig(JSON.parse(readFileSync(join(dir, 'darcy-quick-sweep.json'), 'utf8')), 'darcy-quick-sweep.json');
  assert.deepEqual(s.axes.map((a) => a.path), ['model.width', 'optimizer.lr', 'model.scattering']);
  assert.equal(s.method, 'grid');
  assert.equal(gridSize(s.axes), 8);
  assert.equal(s.seeds, 1);
  assert.deepEqual((s.base.data as { benchmark: string }).benchmark, 'darcy');
});
