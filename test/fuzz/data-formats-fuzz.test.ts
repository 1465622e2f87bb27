// 300 mutations per format in the normal suite (npm run fuzz runs 5000): every failure must be a
// DataError, no case may run past the 2 s hang guard.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { FORMATS } from './cases';
import { fuzzFormat, stopFuzzWorker } from './harness';

after(() => stopFuzzWorker());

for (const format of Object.keys(FORMATS)) {
  test(`fuzz ${format}: 300 mutated files give data or DataErrors, nothing else`, async () => {
    const r = await fuzzFormat(format, 300, 3);
    assert.deepEqual(r.failures, []);
    assert.equal(r.ok + r.dataErrors, 300);
    assert.ok(r.dataErrors > 20, `mutations should break some files (${r.dataErrors} DataErrors)`);
  });
}

test('fuzz harness: a case that never returns is cut off at the hang guard and the run goes on', async () => {
  const r = await fuzzFormat('__hang-selftest', 2, 1, 300); // same mechanism as the 2 s guard, shorter
  assert.equal(r.failures.length, 1);
  assert.match(r.failures[0], /case 1: still running after 300 ms, twice/);
  assert.equal(r.ok, 1);
});
