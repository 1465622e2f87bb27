import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ApiError, isMethod, methods, parseParams, WorkbenchEvent } from '../../../main/api/contract';

test('parseParams accepts valid params and fills defaults', () => {
  assert.deepEqual(parseParams('files.list', { root: 'home' }), { root: 'home', rel: '' });
  assert.deepEqual(parseParams('engine.ping', { t: 5 }), { t: 5 });
});

test('parseParams names the offending field', () => {
  assert.throws(() => parseParams('files.list', { root: 'etc' }), (e: unknown) => {
    assert.ok(e instanceof ApiError);
    assert.equal(e.code, 'invalid_params');
    assert.equal(e.details.field, 'root');
    assert.match(e.message, /files\.list: invalid parameter 'root'/);
    return true;
  });
  assert.throws(() => parseParams('engine.ping', { t: 'soon' }), /invalid parameter 't'/);
  // Unknown keys are refused (strict objects), so a renderer cannot smuggle a raw path in.
  assert.throws(() => parseParams('workspace.get', { path: '/etc' }), /invalid parameter/);
  assert.throws(() => parseParams('workspace.open', { dir: '/etc' }), /invalid parameter 'dir'/);
});

test('isMethod rejects prototype keys and unknown names', () => {
  assert.equal(isMethod('engine.ping'), true);
  assert.equal(isMethod('constructor'), false);
  assert.equal(isMethod('__proto__'), false);
  assert.equal(isMethod(42), false);
});

test('events are a closed union', () => {
  assert.equal(WorkbenchEvent.safeParse({ type: 'engine', state: 'ready' }).success, true);
  assert.equal(WorkbenchEvent.safeParse({ type: 'engine', state: 'exploded' }).success, false);
});

test('ApiError survives a JSON round trip', () => {
  const e = new ApiError('bad file', 'invalid_params', { file: '/x.mat', field: 'coeff' });
  const back = ApiError.from(JSON.parse(JSON.stringify(e.toJSON())));
  assert.equal(back.message, 'bad file');
  assert.equal(back.code, 'invalid_params');
  assert.deepEqual(back.details, { file: '/x.mat', field: 'coeff' });
});

test('datasets.generate takes split sizes and refuses a split larger than the samples, naming train', () => {
  const p = methods['datasets.generate'].params;
  assert.equal(p.safeParse({ benchmark: 'darcy', preset: 'tiny', samples: 10, train: 6, val: 2, test: 2 }).success, true);
  const r = p.safeParse({ benchmark: 'darcy', preset: 'tiny', samples: 10, train: 6, val: 4, test: 2 });
  assert.equal(r.success, false);
  assert.deepEqual(r.error!.issues[0]!.path, ['train']);
  assert.match(r.error!.issues[0]!.message, /train \+ val \+ test \(12\) must be at most samples \(10\)/);
});

test('jobs.lanes: trainingSlots from 1 to 8', () => {
  const p = methods['jobs.lanes'].params;
  assert.equal(p.safeParse({}).success, true);
  assert.equal(p.safeParse({ trainingSlots: 2 }).success, true);
  assert.equal(p.safeParse({ trainingSlots: 0 }).success, false);
  assert.equal(p.safeParse({ trainingSlots: 9 }).success, false);
});
