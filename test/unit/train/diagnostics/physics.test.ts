// Physics checks (main/train/diagnostics/physics.ts): the Darcy residual in the generator's own
// discretization is at the solver's tolerance for the solver's solution and grows with a perturbation;
// Burgers' integral of u is conserved by the generator's solver and not by an offset prediction.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { darcyCoefficient, darcyCellsToNodes, solveGwf } from '../../../../main/data/generate/darcy';
import { burgersSolve } from '../../../../main/data/generate/burgers';
import { grf1Coefficients, grf1Sample } from '../../../../main/data/generate/grf';
import { sampleRng } from '../../../../main/data/generate/rng';
import { darcyResidual, meanDrift, physicsReport } from '../../../../main/train/diagnostics/physics';

const P = { alpha: 2, tau: 3, high: 12, low: 3 };

for (const K of [29, 33]) {
  test(`darcy ${K}x${K}: the solver's own solution has a residual at the solver's tolerance, a perturbed one a larger one`, () => {
    const a = darcyCoefficient(7, 0, K, P);
    for (const tol of [1e-6, 1e-10]) {
      const sol = solveGwf(a, K, { tol });
      const r = darcyResidual(a, sol.cells, K);
      assert.ok(r.relative <= 1.5 * tol, `tol ${tol}: residual ${r.relative} (solver reports ${sol.stats.relResidual})`);
      assert.ok(Math.abs(r.relative - sol.stats.relResidual) <= 0.1 * tol + 1e-12, `the same number the solver stopped at: ${r.relative} vs ${sol.stats.relResidual}`);
      assert.ok(r.boundary < 1e-9, `u = 0 on the boundary nodes: ${r.boundary}`);
    }
    const u = solveGwf(a, K, { tol: 1e-10 }).cells;
    let last = 1e-10;
    for (const eps of [1e-5, 1e-3, 1e-1]) {
      // a smooth bump, relative size eps of the solution's maximum
      const umax = Math.max(...u);
      const v = u.map((x, p) => x + eps * umax * Math.sin(Math.PI * (Math.floor(p / K) + 0.5) / K) * Math.sin(3 * Math.PI * ((p % K) + 0.5) / K));
      const r = darcyResidual(a, v, K).relative;
      assert.ok(r > 10 * last, `perturbation ${eps}: residual ${r} should exceed 10x ${last}`);
      last = r;
    }
    // stored data are float32: that rounding, not the solver, sets the truth's floor there
    const r32 = darcyResidual(a, Float32Array.from(u), K).relative;
    assert.ok(r32 < 1e-3, `float32 storage: ${r32}`);
  });
}

test('darcy: the node -> cell spline inverse returns the solver nodal field', () => {
  const K = 17;
  const sol = solveGwf(darcyCoefficient(3, 1, K, P), K, { tol: 1e-12 });
  const back = darcyCellsToNodes(sol.cells, K);
  const err = Math.max(...back.map((v, i) => Math.abs(v - sol.nodal[i]!)));
  assert.ok(err < 1e-13 * Math.max(...sol.nodal), `max deviation ${err}`);
});

test('burgers: the solver conserves the integral of u, an offset prediction drifts by its offset', () => {
  const n = 64;
  const { alpha, beta } = grf1Coefficients(sampleRng(1, 'burgers', 0), n / 2, 2.5, 7, 7 ** 2);
  const u0 = grf1Sample(alpha, beta, n);
  const uT = burgersSolve(u0, 0.1, 1, 0.5).uT;
  assert.ok(Math.abs(meanDrift(u0, uT)) < 1e-12, `truth drift ${meanDrift(u0, uT)}`);
  const rms = Math.sqrt(u0.reduce((s, v) => s + v * v, 0) / n);
  const off = uT.map((v) => v + 0.01 * rms);
  assert.ok(Math.abs(meanDrift(u0, off) - 0.01) < 1e-12);
  const r = physicsReport('burgers', { data: u0, shape: [1, n, 1] }, { data: off, shape: [1, n, 1] }, { data: uT, shape: [1, n, 1] })!;
  assert.ok(Math.abs(r.mean.prediction - 0.01) < 1e-12 && r.mean.truth! < 1e-12, JSON.stringify(r.mean));
});

test('physicsReport: darcy maps, navier-stokes per step, none for other data', () => {
  const K = 9;
  const a = darcyCoefficient(2, 0, K, P);
  const u = solveGwf(a, K, { tol: 1e-10 }).cells;
  const v = u.map((x) => x * 1.1);
  const r = physicsReport('darcy', { data: [...a], shape: [1, K, K, 1] }, { data: v, shape: [1, K, K, 1] }, { data: u, shape: [1, K, K, 1] })!;
  assert.ok(r.mean.truth! < 1e-9 && r.mean.prediction > 0.05, JSON.stringify(r.mean));
  assert.equal(r.map!.prediction.length, K * K);
  // without a truth (a Playground input not solved yet): the prediction's side is the same, the truth's null
  const alone = physicsReport('darcy', { data: [...a], shape: [1, K, K, 1] }, { data: v, shape: [1, K, K, 1] }, null)!;
  assert.equal(alone.mean.prediction, r.mean.prediction);
  assert.equal(alone.mean.truth, null);
  assert.equal(alone.map!.truth, null);
  assert.deepEqual(alone.map!.prediction, r.map!.prediction);
  // navier-stokes: 2 history frames, 3 steps; the prediction's mean grows by 0.1 per step, the truth's is constant
  const n = 2, G = 4, Q = G * G;
  const hist = Array.from({ length: n * Q * 2 }, (_, i) => Math.cos(i));
  const truth = Array.from({ length: n * Q * 3 }, (_, i) => hist[Math.floor(i / 3) * 2 + 1]!);
  const pred = truth.map((v, i) => v + 0.1 * ((i % 3) + 1));
  const ns = physicsReport('navier-stokes', { data: hist, shape: [n, G, G, 2] }, { data: pred, shape: [n, G, G, 3] }, { data: truth, shape: [n, G, G, 3] })!;
  assert.equal(ns.perStep!.length, 3);
  assert.ok(ns.perStep!.every((s) => s.truth! < 1e-12));
  assert.ok(ns.perStep![2]!.prediction > ns.perStep![0]!.prediction);
  assert.equal(physicsReport('airfoil', { data: [0], shape: [1, 1, 1] }, { data: [0], shape: [1, 1, 1] }, { data: [0], shape: [1, 1, 1] }), null);
});
