// The bounded API fuzz in the normal suite (npm run fuzz:api runs 3000 cases): 300
// malformed HTTP requests, bad WebSocket frames and random API calls against a real browser-host
// process, which must answer every one, stay up, and keep answering engine.ping.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startHostProcess, type HostProcess } from '../helpers/host-process';
import { fuzzApi, formatReport } from './api-fuzz-harness';

let h: HostProcess;
before(async () => {
  h = await startHostProcess();
});
after(async () => {
  await h?.stop();
});

test('300 hostile HTTP requests, WebSocket frames and API calls: every one answered, the host and the engine still answer', { timeout: 60_000 }, async () => {
  const r = await fuzzApi(h, { cases: 300, seed: 7, seconds: 25, checkEvery: 50 });
  console.log(formatReport(r).replace(/^/gm, '# '));
  assert.deepEqual(r.failures, []);
  assert.equal(r.cases, 300, 'all cases ran within the time limit');
  assert.equal(r.pings.failed, 0);
  assert.ok(r.pings.ok >= 7, `engine.ping checked after every 50 cases and at the end (${r.pings.ok})`);
  // The fuzz really was hostile: the host refused requests and dropped clients for bad frames.
  assert.ok((r.answers.http['400'] ?? 0) > 20, 'some requests were answered 400');
  for (const code of ['1002', '1007', '1009']) assert.ok((r.answers.ws[`close ${code}`] ?? 0) > 0, `some clients were closed with ${code}`);
  assert.ok((r.answers.api.invalid_params ?? 0) > 20 && (r.answers.api.unknown_method ?? 0) > 10, 'random calls were refused with their reasons');
  assert.ok(h.alive());
});
