// The vorticity-equation residual between frames (main/train/diagnostics/vorticity-residual.ts) on the
// generator's own solution: it shrinks as the frames come closer (the midpoint rule's O(dt^2)), and a
// perturbed frame's residual is far larger than the solver's.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { nsSolve, fnoForcing } from '../../../../main/data/generate/navier-stokes';
import { nsGrf } from '../../../../main/data/generate/grf';
import { sampleRng } from '../../../../main/data/generate/rng';
import { VorticityResidualOp } from '../../../../main/train/diagnostics/vorticity-residual';

test('vorticity residual: small for the solver, shrinking with the frame interval, large for a perturbed frame', () => {
  const s = 32, nu = 1e-3, A = 0.1;
  const w0 = nsGrf(sampleRng(3, 'navier-stokes', 0), s, 2.5, 7);
  const rel: number[] = [];
  for (const interval of [0.04, 0.01]) {
    const run = nsSolve(w0, s, { nu, forcing: fnoForcing(s, A), frames: 2, interval, scheme: 'ab2', cfl: 0.1 });
    const op = new VorticityResidualOp(s, nu, A, interval);
    rel.push(op.apply(run.frames[0]!, run.frames[1]!).relative);
  }
  assert.ok(rel[0]! < 0.05, `0.04 apart: ${rel[0]}`);
  assert.ok(rel[1]! < rel[0]! / 4, `0.01 apart: ${rel[1]} vs ${rel[0]} (second order: about 1/16)`);
  const run = nsSolve(w0, s, { nu, forcing: fnoForcing(s, A), frames: 2, interval: 0.01, scheme: 'ab2', cfl: 0.1 });
  const op = new VorticityResidualOp(s, nu, A, 0.01);
  const bumped = run.frames[1]!.map((v, p) => v + 0.01 * Math.sin(2 * Math.PI * 3 * Math.floor(p / s) / s));
  const r = op.apply(run.frames[0]!, bumped).relative;
  assert.ok(r > 20 * rel[1]!, `perturbed: ${r} vs ${rel[1]}`);
  assert.throws(() => new VorticityResidualOp(30, nu, A, 1), /grid 30 x 30 is not a power of two/);
});
