// Hardening III, repro 7 (the Playground's schemas and checks): inputs, truths and designs must be
// finite in float32, a value that overflows once encoded with the run's normalizer is refused, and
// a prediction that is not finite names the input (the engine answered "the host produced an
// invalid result"). The same paths through the real engine: test/integration/playground-finite.test.ts.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { PlaygroundDesign, PlaygroundFields } from '../../../main/runs/playground-records';
import { formatZodIssues } from '../../../main/util/zod-issues';
import { assertEncodedFinite, assertPredictionFinite, PlaygroundInputError } from '../../../main/train/playground-predict';

const issues = (r: { success: boolean; error?: { issues: never[] } }) => (r.success ? 'accepted' : formatZodIssues(r.error!.issues));

test('fields and designs with a value that is not finite in float32 are refused naming the value', () => {
  assert.equal(issues(PlaygroundFields.safeParse({ grid: [2, 2], channels: [[1, 2, 3, 4], [1, 2, 1e308, 4]] }) as never), "field 'channels.1.2': 1e+308 is not finite in float32 (expected a number with |v| <= 3.4028234e38)");
  assert.equal(issues(PlaygroundFields.safeParse({ grid: [2, 2], channels: [[1, 2, 3, -3.5e38]] }) as never), "field 'channels.0.3': -3.5e+38 is not finite in float32 (expected a number with |v| <= 3.4028234e38)");
  assert.equal(issues(PlaygroundFields.safeParse({ grid: [2, 2], channels: [[1, 2, 3, 3.4e38]] }) as never), 'accepted');
  assert.match(issues(PlaygroundDesign.safeParse([0, 0, 0, 1e39, 0, 0, 0, 0]) as never), /field '3': expected \|v\| <= 3\.4028234e38 \(finite in float32\)/);
});

test('an encoded value that left float32 names the channel and point; a non-finite prediction names the input', () => {
  const f = { grid: [2], channels: [[1, 3e38]] };
  assert.throws(() => assertEncodedFinite(Float32Array.of(0.5, Infinity), 1, f, 'truth', 'y'), (e: unknown) => e instanceof PlaygroundInputError && e.field === 'truth.channels.0.1' && /3e\+38 becomes Infinity in float32 once encoded with the run's y normalizer/.test((e as Error).message));
  assert.doesNotThrow(() => assertEncodedFinite(Float32Array.of(0.5, 2), 1, f, 'truth', 'y'));
  assert.throws(() => assertPredictionFinite([Float32Array.of(1, 2), Float32Array.of(3, NaN)]), (e: unknown) => e instanceof PlaygroundInputError && e.field === 'input' && /prediction for this input is NaN at channel 1, point 1 \(not finite in float32\)/.test((e as Error).message));
  assert.doesNotThrow(() => assertPredictionFinite([Float32Array.of(1, 2)]));
});
