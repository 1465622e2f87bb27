// The correlation table's export layout (main/api/light-map-correlation-table.ts) is the CLI's CSV:
// header block,statistic,<maps>; three rows per block; a switched-off branch empty; an undefined r NaN.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { correlationTable } from '../../../main/api/light-map-correlation-table';
import { toCsv } from '../../../main/api/table';

test('correlation table: the CLI\'s CSV layout, full precision, empty for a missing map, NaN for an undefined r', () => {
  const { columns, rows } = correlationTable({
    runId: 'r', checkpoint: 'best', split: 'val', samples: 2,
    blocks: [
      { block: 0, maps: [{ map: 'reflectionActivity', pooled: 0.123456789, mean: 0.1, std: 0.02, n: 2 }, { map: 'scattering', pooled: null, mean: -0.5, std: 0, n: 1 }] },
      { block: 1, maps: [{ map: 'refraction', pooled: -0.25, mean: null, std: null, n: 0 }] },
    ],
  });
  const csv = toCsv(columns, rows).trim().split('\r\n');
  assert.deepEqual(csv, [
    'block,statistic,reflectionActivity,refractionActivity,reflection,refraction,scattering',
    '0,pooled,0.123456789,,,,NaN',
    '0,mean,0.1,,,,-0.5',
    '0,std,0.02,,,,0',
    '1,pooled,,,,-0.25,',
    '1,mean,,,,NaN,',
    '1,std,,,,NaN,',
  ]);
});
