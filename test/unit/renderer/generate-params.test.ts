// The Datasets view's "Preset parameters" list: what a generation will really use.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { effectiveParams, withResolution } from '../../../renderer/src/logic/generate-params';
import { PRESETS, resolveParams } from '../../../main/data/generate/presets';
import { SCALARS, absentScalarReason } from '../../../renderer/src/logic/block-scalars';

test('preset parameters show the typed samples and seed (with the preset value beside them), not the preset\'s', () => {
  const preset = { benchmark: 'darcy', samples: 300, resolution: 29, seed: 0 };
  assert.deepEqual(effectiveParams(preset, { samples: '4', seed: '0' }), [['samples', '4', '300'], ['resolution', '29', undefined], ['seed', '0', undefined]]);
  assert.deepEqual(effectiveParams(preset, { samples: '', seed: '7' }), [['samples', '300', undefined], ['resolution', '29', undefined], ['seed', '7', '0']], 'blank samples: the preset\'s');
  assert.deepEqual(effectiveParams(preset, { samples: '1', seed: 'x' })[0], ['samples', '300', undefined], 'an invalid entry is not shown as used');
});

test('preset parameters show the typed resolution as the generator uses it (tiny Navier–Stokes at 16, not the preset\'s 32)', () => {
  const ns = PRESETS['navier-stokes'].tiny as unknown as Record<string, unknown>;
  const shown = effectiveParams(ns, { samples: '', seed: '0', resolution: '16' }, 'tiny');
  assert.deepEqual(shown.find(([k]) => k === 'resolution'), ['resolution', '16', '32']);
  assert.deepEqual(shown.find(([k]) => k === 'solveResolution'), ['solveResolution', '16', '32']);
  assert.deepEqual(effectiveParams(ns, { samples: '', seed: '0', resolution: '' }, 'tiny').find(([k]) => k === 'resolution'), ['resolution', '32', undefined], 'blank: the preset\'s');
  assert.deepEqual(effectiveParams(ns, { samples: '', seed: '0', resolution: '17' }, 'tiny').find(([k]) => k === 'resolution'), ['resolution', '32', undefined], 'a resolution the generator refuses is not shown as used');
  // the renderer's rule is the generator's, for every benchmark, preset and a spread of resolutions
  for (const [benchmark, presets] of Object.entries(PRESETS)) {
    if (benchmark === 'airfoil') continue;
    for (const [preset, params] of Object.entries(presets)) {
      for (const r of [8, 16, 29, 32, 64, 85, 141, 256, 421, 1024]) {
        let engine: unknown;
        try {
          engine = resolveParams(benchmark as 'darcy', { preset: preset as 'tiny', resolution: r });
        } catch {
          engine = params; // refused: the form shows the preset's and the field says why
        }
        assert.deepEqual(withResolution(params as unknown as Record<string, unknown>, preset, r), engine, `${benchmark} ${preset} at ${r}`);
      }
    }
  }
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

test('generate form: fields are checked as typed; a split too small, no test split and a large generation warn', async () => {
  const { checkGenerate, diskEstimate } = await import('../../../renderer/src/logic/generate-params');
  const blank = { samples: '', seed: '0', resolution: '', train: '', val: '', test: '' };
  const ok = checkGenerate('darcy', { ...blank, samples: '100', train: '80', val: '10', test: '10' }, { samples: 300, resolution: 29 });
  assert.deepEqual(ok.problems, {});
  assert.deepEqual(ok.warnings, []);
  assert.deepEqual(ok.values, { samples: 100, seed: 0, train: 80, val: 10, test: 10 });
  const two = checkGenerate('darcy', { ...blank, samples: '2' }, { samples: 300, resolution: 29 });
  assert.match(two.warnings[0]!, /2 samples is too few to split well/);
  assert.match(two.warnings[1]!, /No test split/);
  const bad = checkGenerate('darcy', { ...blank, samples: '1.5', resolution: '4', train: '5', val: '5', test: '1' }, { samples: 10 });
  assert.match(bad.problems.samples!, /Samples must be a whole number from 2 to 1000000/);
  assert.match(bad.problems.resolution!, /Resolution must be a whole number from 8/);
  assert.match(bad.problems.train!, /Train \+ validation \+ test \(11\) must be at most the 10 samples/);
  const huge = checkGenerate('darcy', { ...blank, samples: '1000000', test: '1000' }, { samples: 300, resolution: 29 });
  assert.deepEqual(huge.problems, {});
  assert.match(huge.warnings.join(' '), /About 12\.5 GiB on disk for 1000000 samples at 29 points per axis/);
  assert.equal(diskEstimate('burgers', 10, 256), 10 * 256 * 2 * 4 * 2);
  // a large set with a tiny train or validation part names that part (the closing walk's 1000000 samples with Train 2 read "1000000 samples is too few to split well")
  const fewTrain = checkGenerate('darcy', { ...blank, samples: '1000000', train: '2' }, { samples: 300, resolution: 29 });
  assert.match(fewTrain.warnings[0]!, /^Only 2 of the 1000000 samples to train on/);
  assert.doesNotMatch(fewTrain.warnings.join(' '), /too few to split/);
  const fewVal = checkGenerate('darcy', { ...blank, samples: '100', train: '89', val: '1' }, { samples: 300, resolution: 29 });
  assert.match(fewVal.warnings[0]!, /^Only 1 of the 100 samples to validate on/);
});

test('generate form: the preset fills Samples when the benchmark or preset changes, never over a value typed for the same one (kept across a view switch; the closing walk lost 1000000)', async () => {
  const { presetSamplesOnChange } = await import('../../../renderer/src/logic/generate-params');
  assert.equal(presetSamplesOnChange('', 'darcy:tiny', 6), '6', 'first time: the preset\'s count');
  assert.equal(presetSamplesOnChange('darcy:tiny', 'darcy:tiny', 6), null, 'back on the view: what was typed stays');
  assert.equal(presetSamplesOnChange('darcy:tiny', 'burgers:tiny', 8), '8', 'another benchmark: its count');
  assert.equal(presetSamplesOnChange('', 'darcy:tiny', undefined), null, 'presets not loaded yet: nothing');
});
