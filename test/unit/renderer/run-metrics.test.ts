// Pure helpers of the training views: merging live metrics with history, smoothing, group
// statistics and config differences.
import { test } from 'node:test';
import { configKeyApplies } from '../../../renderer/src/logic/model-kind';
import assert from 'node:assert/strict';
import { formatMs, secondsCell, configDifferences, emaSmooth, mergeByKey, meanStdByEpoch, formatSeconds, etaFromEpochs, runEta, runTimes } from '../../../renderer/src/logic/run-metrics';

const k = (r: { k: number }) => r.k;
const recs = (...ks: number[]) => ks.map((x) => ({ k: x, v: `v${x}` }));

test('mergeByKey: appends in order, dedupes overlapping history and live records, later copy wins', () => {
  const a = recs(1, 2, 3);
  assert.deepEqual(mergeByKey(a, recs(4, 5), k).map(k), [1, 2, 3, 4, 5]);
  assert.equal(mergeByKey(a, [], k), a, 'unchanged array when nothing arrives');
  // History read after live events arrived: overlap and out-of-order.
  const live = recs(5, 6);
  const merged = mergeByKey(live, recs(1, 2, 3, 4, 5, 6), k);
  assert.deepEqual(merged.map(k), [1, 2, 3, 4, 5, 6]);
  const rewritten = mergeByKey(a, [{ k: 2, v: 'again' }], k);
  assert.deepEqual(rewritten.map((r) => r.v), ['v1', 'again', 'v3']);
});

test('emaSmooth: weight 0 is the raw curve; bias-corrected (first value kept); NaN passes through', () => {
  assert.deepEqual(emaSmooth([3, 1, 2], 0), [3, 1, 2]);
  const s = emaSmooth([2, 4, Number.NaN, 4], 0.5);
  assert.equal(s[0], 2);
  assert.equal(s[1], (0.5 * 0.5 * 2 + 0.5 * 4) / (1 - 0.25));
  assert.ok(Number.isNaN(s[2]));
  assert.ok(s[3]! > s[1]! && s[3]! < 4);
  const flat = emaSmooth([5, 5, 5, 5], 0.9);
  for (const v of flat) assert.ok(Math.abs(v - 5) < 1e-12, 'a constant stays constant');
});

test('meanStdByEpoch: per-epoch mean and population std over runs of unequal length', () => {
  const r = meanStdByEpoch([
    [{ epoch: 1, value: 1 }, { epoch: 2, value: 3 }],
    [{ epoch: 1, value: 3 }],
  ]);
  assert.deepEqual(r.epoch, [1, 2]);
  assert.deepEqual(r.mean, [2, 3]);
  assert.deepEqual(r.std, [1, 0]);
  assert.deepEqual(r.n, [2, 1]);
});

test('configDifferences: only choices that differ, ignoring identity fields', () => {
  const d = configDifferences([
    { id: 'a', name: 'x', createdAt: '1', model: { width: 8, depth: 2, components: ['reflection', 'scattering'] }, epochs: 2 },
    { id: 'b', name: 'y', createdAt: '2', model: { width: 16, depth: 2, components: ['reflection', 'scattering'] }, epochs: 2 },
  ]);
  assert.deepEqual(d, [{ 'model.width': '8' }, { 'model.width': '16' }]);
  assert.deepEqual([secondsCell(97.34), secondsCell(1520.4), secondsCell(null)], ['97.3', '1520', '—']);
  // a tiny Burgers run's wall time is under a second, and read "0.0"
  assert.deepEqual([secondsCell(0.0342), secondsCell(0.5), secondsCell(0)], ['0.034', '0.50', '0.0']);
  assert.deepEqual([formatSeconds(0.0342), formatSeconds(3.44), formatSeconds(42)], ['0.034 s', '3.4 s', '42 s']);
  // the estimate's ms per step in plain digits, never "1.0e+2"
  assert.deepEqual([99.6, 100, 12.34, 3.456, 0.5234].map(formatMs), ['100', '100', '12', '3.5', '0.52']);
  assert.equal(formatSeconds(125), '2 min 5 s');
});

test('runTimes: the engine\'s train and queue seconds when sent; else the epochs\' durations and the rest of the wall time', () => {
  assert.deepEqual(runTimes({ trainSeconds: 3.1, queueSeconds: 22 }, 25.1, [1, 1]), { train: 3.1, queue: 22, estimated: false });
  assert.deepEqual(runTimes({}, 25, [1.5, 1.5]), { train: 3, queue: 22, estimated: true });
  assert.deepEqual(runTimes({}, 2, [1.5, 1.5]), { train: 3, queue: 0, estimated: true }, 'never negative');
  assert.deepEqual(runTimes({}, 25, undefined), { train: null, queue: null, estimated: true });
});

test('etaFromEpochs: remaining epochs times the median recent epoch, so an epoch that held a pause does not stretch it', () => {
  assert.equal(etaFromEpochs([2, 2, 2], 10), 20);
  assert.equal(etaFromEpochs([2, 2, 62, 2], 10), 20, 'a 60 s pause inside an epoch');
  assert.equal(etaFromEpochs([1, 3], 2), 4);
  assert.equal(etaFromEpochs([], 5), null);
  assert.equal(etaFromEpochs([9, 9, 9, 9, 9, 1, 1, 1, 1, 1], 1), 1, 'the last five epochs');
});

test("runEta: the engine's step-based ETA during the first epoch, the epochs' median after", () => {
  assert.equal(runEta([], null, 42), 42, 'first epoch: from the steps');
  assert.equal(runEta([], null, null), null, 'before the 3rd step: none');
  assert.equal(runEta([], null, undefined), null);
  assert.equal(runEta([2, 2], 10, 42), 20, 'once epochs are recorded they decide');
  assert.equal(runEta([], null, Number.NaN), null);
});

test('configDifferences by kind: a FNO or DeepONet run lists no LiNO fields; each kind\'s own fields show where kinds differ', () => {
  const lino = { model: { kind: 'lino', width: 8, depth: 2, scattering: 'efficient', components: ['reflection', 'refraction', 'scattering'] }, epochs: 2 };
  const fno = { model: { kind: 'fno', width: 8, depth: 2, scattering: 'efficient', components: ['reflection', 'refraction', 'scattering'], modes: 4 }, epochs: 2 };
  const fno2 = { ...fno, model: { ...fno.model, modes: 6 } };
  const deeponet = { model: { kind: 'deeponet', width: 8, depth: 2, scattering: 'efficient', components: ['reflection', 'refraction', 'scattering'], basis: 16 }, epochs: 3 };
  const d = configDifferences([lino, fno, deeponet], configKeyApplies);
  assert.deepEqual(d[1], { 'epochs': '2', 'model.kind': 'fno', 'model.modes': '4' });
  assert.deepEqual(d[2], { 'epochs': '3', 'model.basis': '16', 'model.kind': 'deeponet' });
  assert.deepEqual(d[0], { 'epochs': '2', 'model.components': 'reflection+refraction+scattering', 'model.kind': 'lino', 'model.scattering': 'efficient' });
  // Two FNOs: only modes differ; the LiNO defaults they carry are not compared.
  assert.deepEqual(configDifferences([fno, fno2], configKeyApplies), [{ 'model.modes': '4' }, { 'model.modes': '6' }]);
  for (const row of configDifferences([fno, fno2, deeponet], configKeyApplies)) assert.ok(!Object.keys(row).some((k) => /components|scattering/.test(k)), JSON.stringify(row));
});
