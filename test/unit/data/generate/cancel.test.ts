import { test } from 'node:test';
import assert from 'node:assert/strict';
import { generateDataset } from '../../../../main/data/generate/index';

test('generate: aborting stops the worker threads promptly and rejects with AbortError', async () => {
  const ac = new AbortController();
  let abortedAt = 0;
  let after = 0;
  const p = generateDataset('darcy', { preset: 'quick', samples: 400 }, {
    signal: ac.signal,
    onProgress: (x) => {
      if (abortedAt) after++;
      if (x.done >= 3 && !abortedAt) { abortedAt = performance.now(); ac.abort(); }
    },
  });
  await assert.rejects(p, (e: Error) => e.name === 'AbortError');
  assert.ok(performance.now() - abortedAt < 1000, 'rejected within 1 s of the abort');
  await new Promise((r) => setTimeout(r, 300));
  assert.equal(after, 0, 'no progress after the abort');
});

test('generate: an already-aborted signal rejects before any work', async () => {
  const ac = new AbortController();
  ac.abort();
  await assert.rejects(generateDataset('darcy', { preset: 'tiny' }, { signal: ac.signal }), (e: Error) => e.name === 'AbortError');
});

test('generate: bad options name the field', async () => {
  await assert.rejects(generateDataset('darcy', { preset: 'tiny', resolution: 1000 }), /resolution.*8\.\.421/);
  await assert.rejects(generateDataset('darcy', { preset: 'tiny', samples: 0 }), /samples/);
  await assert.rejects(generateDataset('darcy', { preset: 'tiny', frames: 3 }), /frames/);
});
