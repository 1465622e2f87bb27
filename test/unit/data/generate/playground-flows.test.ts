// The Playground's Navier-Stokes and airfoil inputs and truths (main/data/generate/playground-flows.ts)
// without the engine: a drawn w0 is seeded and its vortex sits where asked (periodic), the truths
// are the generators' own, an airfoil on a resized run's grid is resized as the pipeline resizes,
// and each refusal names its field.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { NS_MAX_VORTICITY, airfoilTruth, checkDesign, checkNsInput, drawNsVorticity, nsTruth } from '../../../../main/data/generate/playground-flows';
import { airfoilFromDisplacements } from '../../../../main/data/generate/airfoil';
import { PRESETS, type AirfoilParams } from '../../../../main/data/generate/presets';
import { resizeSpatial } from '../../../../main/data/stages/resize';
import { ndarray } from '../../../../main/data/ndarray';

test('a drawn w0 is the same for the same seed; a vortex adds its Gaussian, wrapped across the periodic edge', () => {
  const a = drawNsVorticity(3, 16, [], {});
  assert.deepEqual(drawNsVorticity(3, 16, [], {}), a);
  assert.notDeepEqual(drawNsVorticity(4, 16, [], {}), a);
  const v = drawNsVorticity(3, 16, [{ x: 0, y: 0.5, radius: 0.1, strength: 2 }], {});
  // the centre gets the full strength; a node 1/16 past the edge (x = 15/16) as much as 1/16 before it
  assert.ok(Math.abs(v[0 * 16 + 8]! - a[0 * 16 + 8]! - 2) < 1e-12);
  assert.ok(Math.abs((v[15 * 16 + 8]! - a[15 * 16 + 8]!) - (v[1 * 16 + 8]! - a[1 * 16 + 8]!)) < 1e-12);
});

test('the Navier-Stokes truth splits the solver\'s frames into the T_in history and the T_out frames', () => {
  const w0 = drawNsVorticity(1, 16, [], {});
  const t = nsTruth([16, 16], w0, { tIn: 2, tOut: 1 }, {});
  assert.equal(t.input.length, 2);
  assert.equal(t.channels.length, 1);
  assert.ok(t.channels[0]!.every(Number.isFinite));
  assert.notDeepEqual(t.channels[0], t.input[1]);
});

test('the airfoil truth is the generator\'s mesh and Mach; on a resized run\'s grid, resized as the pipeline resizes', () => {
  const design = [0.01, 0, -0.02, 0.03, 0, 0.01, 0.02, -0.01];
  const p = PRESETS.airfoil.tiny as AirfoilParams;
  const g = airfoilFromDisplacements(design.slice(0, 4), design.slice(4), p);
  const full = airfoilTruth(design, [p.ni, p.nj], {});
  assert.deepEqual(full.input[0], g.X);
  assert.deepEqual(full.channels[0], g.Q.subarray(4 * p.ni * p.nj));
  const small = airfoilTruth(design, [111, 26], {});
  const want = resizeSpatial(ndarray(Float64Array.from(g.Y), [1, p.ni, p.nj], 'float64'), [111, 26], 'interpolate').arr.data as Float64Array;
  assert.deepEqual(small.input[1], Float32Array.from(want));
});

test('hostile w0 and design nodes are refused naming the field', () => {
  const field = (f: () => void) => { try { f(); return 'accepted'; } catch (e) { return (e as { field?: string }).field; } };
  assert.equal(field(() => checkNsInput([12, 12], [new Float64Array(144)])), 'input.grid');
  assert.equal(field(() => checkNsInput([16, 16], [new Float64Array(256), new Float64Array(256)])), 'input.channels');
  assert.equal(field(() => checkNsInput([16, 16], [Float64Array.from({ length: 256 }, (_, i) => (i === 7 ? NS_MAX_VORTICITY * 2 : 0))])), 'input.channels.0.7');
  assert.equal(field(() => checkNsInput([16, 16], [Float64Array.from({ length: 256 }, (_, i) => (i === 9 ? NaN : 0))])), 'input.channels.0.9');
  assert.equal(field(() => checkNsInput([512, 512], [new Float64Array(512 * 512)])), 'input.grid');
  assert.equal(field(() => drawNsVorticity(1, 24, [], {})), 'resolution');
  assert.equal(field(() => checkDesign([0, 0, 0], {})), 'design');
  assert.equal(field(() => checkDesign([0, 0, 0, 0, 0, 0, -0.051, 0], {})), 'design.6');
  assert.equal(field(() => checkDesign([0, 0, NaN, 0, 0, 0, 0, 0], {})), 'design.2');
  assert.equal(field(() => checkDesign([0, 0, 0, 0, 0, 0, 0, 0.09], { displacement: 0.1 })), 'accepted', 'the run\'s own bound');
});
