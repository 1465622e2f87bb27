// Hardening III, repro 6: sweep trials skipped the run configuration's checks. A `backend` axis
// value of "bogus" trained on wasm and recorded "bogus" where `lino train` refuses it; a 10 MB string
// axis value trained too, and the summary printed it four times. Now every configuration of a grid,
// and each axis domain of random/TPE, passes lino train's checks (checkRunConfig, refuseBeforeStart)
// before the sweep starts, and an axis string has a length limit.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { MAX_AXIS_STRING, parseSweepConfig } from '../../../main/sweep/sweep-config';
import { checkTrialConfigs } from '../../../main/sweep/trial-configs';
import { checkRunConfig } from '../../../main/train/runner';

const base = { data: { kind: 'synthetic', grid: [16], train: 8, val: 2 }, model: { width: 4, depth: 1 }, epochs: 2 };

test('a backend axis value "bogus" is refused for a grid (naming the configuration) and for random and TPE (naming the axis)', async () => {
  const axes = [{ path: 'backend', values: ['cpu', 'bogus'] }];
  await assert.rejects(checkTrialConfigs(parseSweepConfig({ name: 'b', base, axes }), 'b.json', null),
    /^Error: b\.json: configuration c1 \{"backend":"bogus"\}: field 'backend': expected one of [a-z, -]+, got "bogus"/);
  for (const method of ['random', 'tpe']) {
    await assert.rejects(checkTrialConfigs(parseSweepConfig({ name: 'b', base, method, axes, budget: { maxTrials: 4 } }), 'b.json', null),
      /b\.json: axes\[0\] \('backend'\) value "bogus": field 'backend': expected one of/);
  }
  // the same check lino train's configuration gets
  assert.throws(() => checkRunConfig({ ...base, backend: 'bogus' }, 'config.json'), /config\.json: field 'backend': expected one of .*got "bogus"/);
  await assert.doesNotReject(checkTrialConfigs(parseSweepConfig({ name: 'b', base, axes: [{ path: 'backend', values: ['cpu', 'wasm'] }] }), 'b.json', null));
});

test('a 10 MB string axis value is refused by the length limit, naming the field and the limit', () => {
  const huge = 'x'.repeat(10 * 2 ** 20);
  assert.throws(() => parseSweepConfig({ name: 's', base, axes: [{ path: 'backend', values: [huge] }] }, 's.json'),
    new RegExp(`^Error: s\\.json: field 'axes\\.0\\.values\\.0': expected at most ${MAX_AXIS_STRING} characters, got ${huge.length} characters$`));
  assert.throws(() => parseSweepConfig({ name: 's', base, axes: [{ path: 'model.components', values: [['a', huge]] }] }, 's.json'),
    /field 'axes\.0\.values\.0\.1': expected at most 4096 characters/);
});

test('a grid configuration that lino train would refuse (memory) is refused though each axis alone is fine; within a trial budget only the configurations that run are checked', async () => {
  const axes = [{ path: 'model.width', values: [4, 4096] }, { path: 'model.depth', values: [1, 64] }];
  const sweep = parseSweepConfig({ name: 'm', base, axes }, 'm.json');
  await assert.rejects(checkTrialConfigs(sweep, 'm.json', 'cpu'), /m\.json: configuration c3 \{"model\.width":4096,"model\.depth":64\}: field 'model\.width': does not fit: the model has [\d,]+ parameters/);
  await assert.doesNotReject(checkTrialConfigs(sweep, 'm.json', null), 'no memory check for an export');
  await assert.doesNotReject(checkTrialConfigs(parseSweepConfig({ name: 'm', base, axes, budget: { maxTrials: 3 } }), 'm.json', 'cpu'), 'c3 never runs');
});
