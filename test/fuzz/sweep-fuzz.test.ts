// A sweep's files fuzzed (hardening III): 150 mutated state.json files and 150 mutated collected run
// folders in the normal suite (npm run fuzz runs 5000 of each). Each runs what the app runs over it
// and ends in a run or a refusal naming the file; nothing outside runs/ changes, runs/ holds only run
// folders without links, the saved state loads again (test/fuzz/sweep-cases.ts says the invariants).
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { fuzzFormat, stopFuzzWorker } from './harness';

after(() => stopFuzzWorker());

for (const format of ['sweep-state', 'collected-run']) {
  test(`fuzz ${format}: 150 mutations run or are refused naming the file; no crash, no hang, no invariant broken`, { timeout: 120_000 }, async () => {
    const r = await fuzzFormat(format, 150, 5);
    assert.deepEqual(r.failures, []);
    assert.equal(r.ok + r.dataErrors, 150);
    assert.ok(r.dataErrors > 15, `mutations should break some (${r.dataErrors} refusals)`);
    assert.ok(r.ok > 15, `some mutations should still run (${r.ok})`);
  });
}
