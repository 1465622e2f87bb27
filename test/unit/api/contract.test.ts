import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ApiError, isMethod, parseParams, WorkbenchEvent } from '../../../main/api/contract';

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
