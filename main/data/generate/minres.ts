// Preconditioned MINRES (Elman, Silvester & Wathen, Algorithm 2.4) for the Darcy system on grids too
// large for the banded direct solve. Without the clamp the spline's overshoot makes the operator
// symmetric but possibly indefinite (non-positive face coefficients next to the boundary), which CG
// does not handle and MINRES does. The preconditioner must be symmetric positive definite: one
// multigrid V-cycle of an operator close to the true one but with positive face coefficients
// (darcy.ts floors the coefficient), so iterations stay few.
import { applyStencil, MultigridPreconditioner, type Level, type SolveStats } from './multigrid';

function dot(L: Level, a: Float64Array, b: Float64Array): number {
  const { N, W } = L;
  let s = 0;
  for (let i = 1; i < N; i++) for (let j = 1; j < N; j++) { const p = i * W + j; s += a[p] * b[p]; }
  return s;
}

/**
 * Solves A u = f (A a 5-point stencil on the (N+1)^2 nodal grid, boundary zero) to a true relative
 * residual <= tol, preconditioned by a V-cycle of `P` (an SPD stencil of the same grid).
 */
export function solveMinres(N: number, A: Float64Array, P: Float64Array, f: Float64Array, tol = 1e-10, maxIter = 500): { u: Float64Array; stats: SolveStats } {
  const mg = new MultigridPreconditioner(N, P);
  const L: Level = { ...mg.levels[0], A, five: true };
  const W = N + 1, n = W * W;
  const fb = new Float64Array(n);
  for (let i = 1; i < N; i++) for (let j = 1; j < N; j++) fb[i * W + j] = f[i * W + j];
  const bnorm = Math.sqrt(dot(L, fb, fb));
  const u = new Float64Array(n);
  if (bnorm === 0) return { u, stats: { iterations: 0, relResidual: 0, levels: mg.levels.length } };
  const r = new Float64Array(n), Az = new Float64Array(n);
  let it = 0, rel = 1;
  // restarts from the current iterate if the recurrence's residual estimate drifted from the true one
  let vPrev = new Float64Array(n), v = new Float64Array(n), vNext = new Float64Array(n);
  let z = new Float64Array(n), zNext = new Float64Array(n);
  let wPrev = new Float64Array(n), w = new Float64Array(n), wNext = new Float64Array(n);
  // restarts from the current iterate if the recurrence's residual estimate drifted from the true one
  for (let restart = 0; restart < 4; restart++) {
    applyStencil(L, u, r, fb);
    rel = Math.sqrt(dot(L, r, r)) / bnorm;
    if (rel <= tol || it >= maxIter) break;
    vPrev.fill(0); v.set(r); wPrev.fill(0); w.fill(0);
    mg.apply(v, z);
    let gamma = Math.sqrt(dot(L, z, v)), gammaPrev = 1;
    const eta0 = gamma;
    let eta = gamma, s0 = 0, s1 = 0, c0 = 1, c1 = 1;
    while (it < maxIter) {
      it++;
      for (let k = 0; k < n; k++) z[k] /= gamma;
      applyStencil(L, z, Az);
      const delta = dot(L, Az, z);
      for (let k = 0; k < n; k++) vNext[k] = Az[k] - (delta / gamma) * v[k] - (gamma / gammaPrev) * vPrev[k];
      mg.apply(vNext, zNext);
      const gammaNext = Math.sqrt(Math.max(0, dot(L, zNext, vNext)));
      const a0 = c1 * delta - c0 * s1 * gamma;
      const a1 = Math.sqrt(a0 * a0 + gammaNext * gammaNext);
      const a2 = s1 * delta + c0 * c1 * gamma;
      const a3 = s0 * gamma;
      const c2 = a0 / a1, s2 = gammaNext / a1;
      for (let k = 0; k < n; k++) {
        wNext[k] = (z[k] - a3 * wPrev[k] - a2 * w[k]) / a1;
        u[k] += c2 * eta * wNext[k];
      }
      eta = -s2 * eta;
      c0 = c1; c1 = c2; s0 = s1; s1 = s2;
      [vPrev, v, vNext] = [v, vNext, vPrev];
      [z, zNext] = [zNext, z];
      [wPrev, w, wNext] = [w, wNext, wPrev];
      gammaPrev = gamma; gamma = gammaNext;
      // |eta| / eta0 estimates the relative (preconditioned) residual: check the true one when it is small
      if (Math.abs(eta) <= tol * eta0 || gammaNext === 0 || it % 5 === 0) {
        applyStencil(L, u, r, fb);
        rel = Math.sqrt(dot(L, r, r)) / bnorm;
        if (rel <= tol || gammaNext === 0 || Math.abs(eta) <= tol * eta0) break;
      }
    }
  }
  applyStencil(L, u, r, fb);
  rel = Math.sqrt(dot(L, r, r)) / bnorm;
  if (!(rel <= tol)) throw new Error(`darcy: MINRES relative residual ${rel.toExponential(2)} above ${tol} after ${it} iterations`);
  return { u, stats: { iterations: it, relResidual: rel, levels: mg.levels.length } };
}
