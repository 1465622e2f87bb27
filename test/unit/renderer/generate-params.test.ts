// The Datasets view's "Preset parameters" list: what a generation will really use.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { effectiveParams } from '../../../renderer/src/store/generate-params';
import { SCALARS, absentScalarReason } from '../../../renderer/src/store/block-scalars';

test('preset parameters show the typed samples and seed (with the preset value beside them), not the preset\'s', () => {
  const preset = { benchmark: 'darcy', samples: 300, resolution: 29, seed: 0 };
  assert.deepEqual(effectiveParams(preset, { samples: '4', seed: '0' }), [['samples', '4', '300'], ['resolution', '29', undefined], ['seed', '0', undefined]]);
  assert.deepEqual(effectiveParams(preset, { samples: '', seed: '7' }), [['samples', '300', undefined], ['resolution', '29', undefined], ['seed', '7', '0']], 'blank samples: the preset\'s');
  assert.deepEqual(effectiveParams(preset, { samples: '1', seed: 'x' })[0], ['samples', '300', undefined], 'an invalid entry is not shown as used');
});

test('gates: an absent block scalar says why (tau belongs to full scattering; a component off)', () => {
  assert.ok(SCALARS.some((s) => s.key === 'tau' && /softplus/.test(s.label)));
  const efficient = [{ components: ['reflection', 'refraction', 'scattering'], scalars: { eta: 1, beta: 0.5, sigma: 1 } }];
  assert.match(absentScalarReason('tau', efficient)!, /full scattering.*efficient scattering/);
  assert.equal(absentScalarReason('beta', efficient), null);
  const full = [{ components: ['reflection', 'scattering'], scalars: { sigma: 1, tau: 0.69 } }];
  assert.equal(absentScalarReason('tau', full), null, 'full scattering: tau is plotted');
  assert.match(absentScalarReason('eta', full)!, /refraction is off/);
  assert.match(absentScalarReason('beta', full)!, /efficient scattering; this run uses full/);
  assert.match(absentScalarReason('tau', [{ components: ['reflection'], scalars: {} }])!, /scattering is off/);
});
