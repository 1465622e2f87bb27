// The Training form's Name field: a name typed for one run is not kept for an unrelated one.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { NO_NAME, runNameKey, shownName, validTypedName } from '../../../renderer/src/logic/run-name';

test('a typed name shows for the data and kind it was typed beside, and not for another run', () => {
  const typed = { name: 'deeponet-darcy', for: runNameKey('dataset:darcy-1', 'deeponet') };
  assert.equal(shownName(typed, runNameKey('dataset:darcy-1', 'deeponet')), 'deeponet-darcy');
  assert.equal(shownName(typed, runNameKey('dataset:darcy-1', 'lino')), '', 'another model kind');
  assert.equal(shownName(typed, runNameKey('generate:burgers:tiny', 'deeponet')), '', 'other data');
  assert.equal(shownName(NO_NAME, runNameKey('dataset:darcy-1', 'deeponet')), '', 'cleared once its run started');
  assert.ok(validTypedName(typed));
  assert.ok(!validTypedName('deeponet-darcy'), 'the old stored string falls back to no name');
  assert.ok(!validTypedName({ name: 'x'.repeat(501), for: '' }));
});
