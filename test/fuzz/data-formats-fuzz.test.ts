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

// The weight formats: .pt (pickle opcodes, zip structure, bytes) and safetensors (header
// fields, JSON, bytes); npm run fuzz runs 5000 of each. Every failure must be an error naming the file.
for (const [format, n] of [['pt', 120], ['safetensors', 300]] as const) {
  test(`fuzz ${format}: ${n} mutated files read or are refused naming the file; no crash, no hang`, { timeout: 300_000 }, async () => {
    const r = await fuzzFormat(format, n, 3);
    assert.deepEqual(r.failures, []);
    assert.equal(r.ok + r.dataErrors, n);
    assert.ok(r.dataErrors > n / 10, `mutations should break some files (${r.dataErrors} refusals)`);
  });
}
