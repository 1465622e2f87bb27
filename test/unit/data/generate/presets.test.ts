import { test } from 'node:test';
import assert from 'node:assert/strict';
import { PRESETS, resolveParams, methodOf } from '../../../../main/data/generate/presets';

test('presets: every benchmark has tiny, quick and paper with the paper sizes', () => {
  for (const b of ['darcy', 'burgers', 'navier-stokes', 'airfoil'] as const)
    for (const p of ['tiny', 'quick', 'paper'] as const) assert.equal(PRESETS[b][p].benchmark, b);
  assert.deepEqual([PRESETS.darcy.paper.samples, (PRESETS.darcy.paper as { resolution: number }).resolution], [1024, 421]);
  assert.equal((PRESETS.burgers.paper as { resolution: number }).resolution, 8192);
  const ns = PRESETS['navier-stokes'].paper as { solveResolution: number; resolution: number; dt: number | null };
  assert.deepEqual([ns.solveResolution, ns.resolution, ns.dt], [256, 64, 1e-4]);
});

test('presets: paper Darcy strides the 421 grid when it can, otherwise solves directly', () => {
  const a = resolveParams('darcy', { preset: 'paper', resolution: 85 });
  assert.equal(a.benchmark === 'darcy' && a.solveResolution, 421);
  assert.match(methodOf(a), /421.*striding to 85/);
  const b = resolveParams('darcy', { preset: 'paper', resolution: 241 });
  assert.equal(b.benchmark === 'darcy' && b.solveResolution, 241);
  const c = resolveParams('darcy', { preset: 'quick', resolution: 141 });
  assert.equal(c.benchmark === 'darcy' && c.solveResolution, 141);
  assert.match(methodOf(c), /directly/);
});

test('presets: Burgers and Navier-Stokes resolutions, frames, and bad values', () => {
  const b = resolveParams('burgers', { preset: 'paper', resolution: 256 });
  assert.equal(b.benchmark === 'burgers' && b.solveResolution, 8192);
  const n = resolveParams('navier-stokes', { preset: 'quick', resolution: 128, frames: 7, tIn: 3, tOut: 4 });
  assert.ok(n.benchmark === 'navier-stokes' && n.solveResolution === 128 && n.frames === 7 && n.tIn === 3 && n.tOut === 4);
  // a set shorter than its training window is refused before generating (tiny once had 3 frames for a 20-frame window)
  assert.throws(() => resolveParams('navier-stokes', { preset: 'quick', frames: 7 }), /"frames" = 7: expected at least tIn \+ tOut = 10 \+ 10 = 20/);
  assert.throws(() => resolveParams('darcy', { preset: 'tiny', tIn: 3 }), /"tIn" = 3: expected only for navier-stokes/);
  assert.throws(() => resolveParams('burgers', { preset: 'quick', resolution: 300 }), /resolution.*power of two/);
  assert.throws(() => resolveParams('airfoil', { preset: 'quick', resolution: 64 }), /221 x 51/);
  assert.throws(() => resolveParams('darcy', { preset: 'huge' as 'tiny' }), /preset/);
  assert.throws(() => resolveParams('darcy', { preset: 'tiny', seed: -1 }), /seed/);
  // presets are not mutated by overrides
  assert.equal(PRESETS.darcy.quick.samples, 1024);
  resolveParams('darcy', { preset: 'quick', samples: 3 });
  assert.equal(PRESETS.darcy.quick.samples, 1024);
});
