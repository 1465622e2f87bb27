// The Sweeps view's form as logic (renderer/src/logic/sweep-form.ts): the fields each model kind can
// sweep, the form as a sweep.json the engine's own parser accepts, errors that name the field, the
// honest trial counts shared by the list and the detail, "Train the best fully"'s request (new seeds
// by default), and the best-so-far figure's x ticks.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { defaultAxis, defaultSweepForm, formToConfig, sweepableFields, trainBestDefaults, trainBestRequest, trialCount, type SweepForm } from '../../../renderer/src/logic/sweep-form';
import { parseSweepConfig } from '../../../main/sweep/sweep-config';
import { plannedTrials } from '../../../main/sweep/sampler';
import { bestSoFarSvg, trialTicks } from '../../../renderer/src/views/sweeps/sweep-svg';

test('each kind sweeps the training fields and its own model fields', () => {
  const paths = (k: string) => sweepableFields(k).map((f) => f.path);
  assert.deepEqual(paths('lino'), ['optimizer.lr', 'optimizer.weightDecay', 'batchSize', 'model.width', 'model.depth']);
  assert.ok(paths('fno').includes('model.modes'));
  assert.ok(!paths('lino').includes('model.modes'));
  assert.ok(sweepableFields('fno').find((f) => f.path === 'optimizer.lr')!.log);
  assert.throws(() => sweepableFields('nope'), /unknown model kind 'nope'/);
});

test('the default form is a 2x2 grid with 2 seeds that the engine parser accepts: 8 planned trials', () => {
  const cfg = parseSweepConfig(formToConfig(defaultSweepForm()), 'form');
  assert.equal(cfg.method, 'grid');
  assert.deepEqual(cfg.axes, [{ path: 'model.width', values: [4, 8] }, { path: 'optimizer.lr', values: [0.001, 0.01] }]);
  assert.deepEqual(cfg.base.data, { kind: 'synthetic', grid: [16], train: 8, val: 2 });
  assert.deepEqual(plannedTrials(cfg), { planned: 8, atMost: 8 });
});

test('a dataset, a log range, a range of whole numbers, random with a budget and ASHA make the sweep.json the JSON tab takes', () => {
  const f: SweepForm = {
    ...defaultSweepForm(), name: ' fno-lr ', dataset: 'darcy-16-abc', kind: 'fno', method: 'random', seeds: '1', maxTrials: '6', earlyStopping: true, minEpochs: '1', eta: '3',
    axes: [{ ...defaultAxis(sweepableFields('fno')[0]!), low: '1e-4', high: '1e-2', steps: '' }, { path: 'model.modes', mode: 'range', values: '', low: '4', high: '12', steps: '', int: true }],
  };
  const json = formToConfig(f);
  assert.deepEqual(json, {
    name: 'fno-lr', base: { data: { kind: 'dataset', id: 'darcy-16-abc' }, model: { kind: 'fno' }, epochs: 2, batchSize: 4 },
    axes: [{ path: 'optimizer.lr', logRange: [1e-4, 1e-2] }, { path: 'model.modes', range: [4, 12], int: true }],
    method: 'random', samplerSeed: 0, seeds: 1, budget: { maxTrials: 6 }, earlyStopping: { kind: 'asha', minEpochs: 1, eta: 3 },
  });
  const cfg = parseSweepConfig(json, 'form');
  assert.deepEqual(plannedTrials(cfg), { planned: null, atMost: 6 });
});

test('bad form input is refused naming the field and what was expected', () => {
  const d = defaultSweepForm();
  assert.throws(() => formToConfig({ ...d, seeds: '0' }), /field 'seeds': expected a whole number from 1 to 20, got '0'/);
  assert.throws(() => formToConfig({ ...d, axes: [{ ...d.axes[0]!, values: ' , ' }] }), /field 'axes\[0\] \(model.width\).values': expected one value or more/);
  assert.throws(() => formToConfig({ ...d, axes: [{ ...d.axes[0]!, mode: 'range', low: '8', high: '4' }] }), /axes\[0\] \(model.width\).high': expected more than the low end 8, got '4'/);
  assert.throws(() => formToConfig({ ...d, axes: [{ ...d.axes[1]!, mode: 'log', low: '0', high: '1' }] }), /\.low': expected a positive number \(a log range\)/);
  assert.throws(() => formToConfig({ ...d, axes: [{ ...d.axes[1]!, mode: 'range', low: '0.001', high: '0.01', steps: '' }] }), /\.steps': expected a whole number from 2 to 64/);
  assert.throws(() => formToConfig({ ...d, method: 'tpe' }), /field 'budget': expected a trial or wall-time budget for a tpe sweep/);
  assert.throws(() => formToConfig({ ...d, axes: [d.axes[0]!, d.axes[0]!] }), /field 'axes': expected each field once, got 'model.width'/);
  assert.throws(() => formToConfig({ ...d, axes: [] }), /field 'axes': expected one axis or more/);
});

test('trial counts: a grid counts against its planned total, a bounded search says "at most", an unbounded one the count alone', () => {
  assert.equal(trialCount({ ended: 1, planned: 8, atMost: 8 }), '1 of 8 trials');
  assert.equal(trialCount({ ended: 3, planned: null, atMost: 20 }, 'trials ended'), '3 of at most 20 trials ended');
  assert.equal(trialCount({ ended: 3, planned: null, atMost: null }), '3 trials');
});

test('"Train the best fully" defaults to the sweep\'s epochs, as many seeds, new ones, and a name; its request sets them', () => {
  const config = { base: { data: { kind: 'synthetic', grid: [16], train: 8, val: 2 }, epochs: 6, seed: 7, model: { width: 4 } }, seeds: 2 };
  const f = trainBestDefaults(config, 'grid-demo', 3);
  assert.deepEqual(f, { epochs: '6', seeds: '2', firstSeed: '9', name: 'grid-demo best (c3)' });
  const r = trainBestRequest(config.base, { 'model.width': 8, 'optimizer.lr': 0.01 }, { ...f, epochs: '40' });
  assert.deepEqual(r, { seeds: 2, config: { data: config.base.data, epochs: 40, seed: 9, model: { width: 8 }, optimizer: { lr: 0.01 }, name: 'grid-demo best (c3)' } });
  assert.deepEqual(trainBestDefaults({ base: {}, seeds: 1 }, 's', 0).firstSeed, '43');
  assert.throws(() => trainBestRequest(config.base, {}, { ...f, epochs: 'x' }), /field 'epochs': expected a whole number/);
  assert.throws(() => trainBestRequest(config.base, {}, { ...f, name: ' ' }), /field 'name'/);
});

test('the best-so-far curve has whole-trial x ticks from 1 to the last', () => {
  assert.deepEqual(trialTicks(1), [1]);
  assert.deepEqual(trialTicks(8), [1, 2, 3, 4, 5, 6, 7, 8]);
  assert.deepEqual(trialTicks(40), [1, 5, 10, 15, 20, 25, 30, 35, 40]);
  const svg = bestSoFarSvg([1, 2, 3].map((t) => ({ trial: t, value: 1 / t, best: 1 / t })));
  assert.deepEqual([...svg.matchAll(/class="x-tick"[^>]*>(\d+)</g)].map((m) => m[1]), ['1', '2', '3']);
});

test('the backend picked in the form goes into the sweep\'s base (torch on its device), the engine adds nothing, a forged value is refused naming the field', () => {
  const torch = formToConfig({ ...defaultSweepForm(), backend: 'torch:cpu' });
  assert.deepEqual([torch.base.backend, torch.base.torch], ['torch', { device: 'cpu' }]);
  assert.equal(parseSweepConfig(torch, 'form').base.backend, 'torch');
  const engine = formToConfig(defaultSweepForm());
  assert.deepEqual([engine.base.backend, engine.base.torch], [undefined, undefined]);
  // a form saved before the picker existed trains on the engine
  const { backend: _b, ...old } = defaultSweepForm();
  assert.equal(formToConfig(old as SweepForm).base.backend, undefined);
  assert.throws(() => formToConfig({ ...defaultSweepForm(), backend: 'torch:tpu' as never }), /backend.*one of engine, torch:cpu, torch:cuda, torch:mps/);
});
