// Resolution transfer keeps each sample: a tiny Darcy set generated at s = 29, solved at s = 57 by the
// transfer path (dataAtGrid, as the Fields view and `lino eval --at` use it). Each validation sample's
// coefficient at 57, read at the points it shares with 29 (every other point: 57 = 2 * 29 - 1), is
// the native coefficient there except next to its interfaces.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { DataSpec } from '../../../main/data/data-spec';
import type { TrainData } from '../../../main/train/data';
import { loadTrainData } from '../../../main/train/data-source';
import { dataAtGrid } from '../../../main/train/data-at-grid';

/** Each row's coefficient channel decoded and read as high (true) or low (false), [row][i * s + j]. */
function highCells(d: TrainData): boolean[][] {
  const { shape, data } = d.val.x as unknown as { shape: number[]; data: Float32Array };
  const [n, s, , c] = shape as [number, number, number, number];
  const { mean, std } = d.manifest.normalization.x;
  const scale = d.manifest.normalization.applied ? std + d.manifest.normalization.eps : 1;
  const shift = d.manifest.normalization.applied ? mean : 0;
  return Array.from({ length: n }, (_, r) => Array.from({ length: s * s }, (_, p) => data[(r * s * s + p) * c]! * scale + shift > 7.5));
}

test('solved at s = 57 from a set generated at s = 29: each sample is the native one refined (>= 95% of the shared points agree)', { timeout: 300_000 }, async () => {
  const workspace = mkdtempSync(join(tmpdir(), 'lino-transfer-same-'));
  try {
    const spec: DataSpec = { kind: 'generate', benchmark: 'darcy', preset: 'tiny', samples: 8, generateResolution: 29, resolution: 29, train: 4, val: 4, test: 0 };
    const base = await loadTrainData(spec, { workspace });
    const at = await dataAtGrid(spec, base, 57, 'solved', { workspace, split: 'val' });
    assert.equal(at.source, 'solved');
    assert.deepEqual(at.data.manifest.grid, [57, 57]);
    const native = highCells(base), fine = highCells(at.data);
    assert.equal(fine.length, native.length);
    native.forEach((row, r) => {
      let same = 0;
      for (let i = 0; i < 29; i++) for (let j = 0; j < 29; j++) if (row[i * 29 + j] === fine[r]![2 * i * 57 + 2 * j]) same++;
      assert.ok(same / (29 * 29) >= 0.95, `validation sample ${r}: ${same} of ${29 * 29} shared points agree`);
    });
  } finally {
    rmSync(workspace, { recursive: true, force: true });
  }
});
