// The Playground's out-of-distribution measure: a Darcy training set as the generator
// writes it, its values through the float round trip that leaves the stored maximum at 11.999989
// (as the run had it); fresh draws from the Playground's generator read as like the
// training inputs, a coefficient of 30 or of values between the two levels does not.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { darcyCoefficient } from '../../../main/data/generate/darcy';
import { drawDarcyCoefficient, drawBurgersU0 } from '../../../main/data/generate/playground-solver';
import { inputDistance, inputProfile } from '../../../main/train/input-distance';

const s = 29;
const params = { alpha: 2, tau: 3, high: 12, low: 3 };
// the stored values: exact 3 and 12 scaled as the decoded maximum (11.999989 for 12)
const stored = Array.from({ length: 200 }, (_, i) => Float32Array.from(darcyCoefficient(5, i, s, params), (v) => v * (11.999989 / 12)));
const profile = inputProfile(stored.length, (i) => stored[i]!);

test('a Darcy training set is recognised as binary, its maximum 11.999989', () => {
  assert.ok(Math.abs(profile.max - 11.999989) < 1e-5, String(profile.max));
  assert.ok(profile.levels, 'two levels');
  assert.ok(Math.abs(profile.levels[1] - 12) < 1e-4 && Math.abs(profile.levels[0] - 3) < 1e-4);
});

// the tiny preset's training split: 4 samples span little of what the generator draws
const tiny = inputProfile(4, (i) => stored[i]!);

test('100 fresh draws from the run\'s generator are all like the training inputs (200 training samples, and 4)', () => {
  for (let seed = 1; seed <= 100; seed++) for (const p of [profile, tiny]) {
    const d = inputDistance(p, [drawDarcyCoefficient(seed, s, params.tau, 0)]);
    assert.equal(d.level, 'in', `seed ${seed}, ${p.count} training samples: ${d.label}`);
    assert.equal(d.outside, 0, `seed ${seed}: a drawn 12 is on the training's maximum`);
    assert.match(d.label, /^Like the training inputs/);
  }
});

test('a coefficient of 30 is far; one with values between the two levels is not like the training inputs', () => {
  const far = inputDistance(profile, [new Float32Array(s * s).fill(30)]);
  assert.equal(far.level, 'out');
  assert.equal(inputDistance(tiny, [new Float32Array(s * s).fill(30)]).level, 'out');
  assert.equal(far.outside, 1);
  assert.match(far.label, /^Far from the training data .*100\.0 % of points outside the training range \[3\.00, 12\.0\]/);
  const smooth = drawDarcyCoefficient(3, s, params.tau, 0).map((v, i) => (i % 10 === 0 ? 7.5 : v));
  const mid = inputDistance(profile, [smooth]);
  assert.equal(mid.level, 'out', mid.label);
  assert.match(mid.label, /between the training's two values 3\.00 and 12\.0/);
});

test('a continuous field: its range counts within float tolerance, and a field twice as large is far', () => {
  const train = Array.from({ length: 50 }, (_, i) => drawBurgersU0(1000 + i, 64));
  const p = inputProfile(train.length, (i) => train[i]!);
  assert.equal(p.levels, null);
  const top = train.findIndex((t) => t.some((v) => v === p.max));
  const edge = Float32Array.from(train[top]!, (v) => (v === p.max ? v + p.tol / 2 : v));
  assert.equal(inputDistance(p, [edge]).outside, 0, 'a value at the maximum within tolerance is inside');
  assert.equal(inputDistance(p, [train[0]!]).level, 'in');
  assert.equal(inputDistance(p, [train[0]!.map((v) => 3 * v)]).level, 'out');
});
