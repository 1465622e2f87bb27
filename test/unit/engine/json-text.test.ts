// A worker job's result crosses the engine thread as JSON text (main/engine/json-text.ts): the host
// gets the same event, and jobs.list the same summary, as when the result was an object.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { JobSummary } from '../../../main/api/contract';
import { JsonText, jobEventMessage, withParsedResult } from '../../../main/engine/json-text';

const result = { resolutions: [{ grid: [29, 29], fields: [{ name: 'u', values: [0.1, -2.5e-8, 3] }], note: 'a "quoted" \\ text\n' }], empty: null };
const job: JobSummary = { id: 'ab12cd34', kind: 'evaluate', lane: 'evaluation', seq: 3, state: 'done', label: 'Evaluate run r1 (best)', progress: 1, etaSeconds: null, startedAt: '2026-11-27T20:00:00.000Z', endedAt: '2026-11-27T20:00:05.000Z' };

test('a result kept as JSON text reaches the host as the same job event, through the JSON the transport sends', () => {
  const plain = jobEventMessage({ ...job, result });
  assert.deepEqual(plain, { type: 'event', event: { type: 'job', job: { ...job, result } } });
  const text = jobEventMessage({ ...job, result: new JsonText(JSON.stringify(result)) });
  assert.equal(text.type, 'event-json');
  // what the host's engine client does with it, after the transport's own JSON round trip
  const received = JSON.parse(JSON.stringify(text)) as { type: 'event-json'; json: string };
  assert.deepEqual(JSON.parse(received.json), { type: 'job', job: { ...job, result } });
});

test('jobs.list answers a result kept as text as the object, and leaves other results alone', () => {
  assert.deepEqual(withParsedResult({ ...job, result: new JsonText(JSON.stringify(result)) }), { ...job, result });
  const other = { ...job, result: { id: 'x' } };
  assert.equal(withParsedResult(other), other);
  assert.deepEqual(withParsedResult({ ...job, state: 'running' }), { ...job, state: 'running' });
});
