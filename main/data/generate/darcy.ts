// Darcy flow -div(a grad u) = 1 on the unit square, u = 0 on the boundary, following FNO's
// generator: a = threshold of a cosine-transform GRF (12 where >= 0, 3 where < 0) on s x s cell
// centres; solve_gwf: not-a-knot spline of a onto the s x s nodal grid (h = 1/(s-1)), 5-point finite
// differences with face coefficients (a_i + a_j)/2, float64 multigrid-preconditioned CG to a relative
// residual <= tol, and the nodal solution splined back to the cell centres.
import { sampleRng } from './rng';
import { darcyGrf } from './grf';
import { UniformSpline, spline2 } from './spline';
import { darcyStencil, solvePcg, type SolveStats } from './multigrid';

export interface DarcyParams {
  /** Stored resolution. */
  resolution: number;
  /** Resolution the GRF is drawn and the PDE solved at; stored = solve grid strided by (solveResolution-1)/(resolution-1). */
  solveResolution: number;
  alpha: number;
  tau: number;
  high: number;
  low: number;
  tol: number;
}

const plans = new Map<string, UniformSpline>();
function plan(K: number, toNodes: boolean): UniformSpline {
  const key = `${K}:${toNodes}`;
  let p = plans.get(key);
  if (!p) {
    const cells = Array.from({ length: K }, (_, i) => (2 * i + 1) / (2 * K));
    const nodes = Array.from({ length: K }, (_, i) => i / (K - 1));
    p = toNodes ? new UniformSpline(K, 1 / (2 * K), 1 / K, nodes) : new UniformSpline(K, 0, 1 / (K - 1), cells);
    plans.set(key, p);
  }
  return p;
}

export interface DarcySolution {
  /** Nodal coefficient actually used by the finite differences (K x K). */
  nodalCoef: Float64Array;
  /** Nodal float64 solution including its zero boundary (K x K). */
  nodal: Float64Array;
  /** Solution at the cell centres (K x K), what FNO stores. */
  cells: Float64Array;
  stats: SolveStats;
}

/** FNO's solve_gwf for a K x K cell-centred coefficient and f = 1. */
export function solveGwf(coefCells: Float64Array, K: number, tol = 1e-8): DarcySolution {
  const nodalCoef = spline2(coefCells, plan(K, true));
  // Deviation from FNO (documented in the manifest): the cubic spline of 3/12 step data overshoots,
  // and its extrapolation onto the boundary nodes reaches large negative values (about half the samples
  // get a non-positive face coefficient, which MATLAB's backslash tolerated). Clamping to the data's
  // range keeps the operator symmetric positive definite, as CG and multigrid require.
  let lo = Infinity, hi = -Infinity;
  for (let i = 0; i < K * K; i++) { lo = Math.min(lo, coefCells[i]); hi = Math.max(hi, coefCells[i]); }
  for (let i = 0; i < K * K; i++) nodalCoef[i] = Math.min(hi, Math.max(lo, nodalCoef[i]));
  const A = darcyStencil(nodalCoef, K);
  const f = new Float64Array(K * K);
  for (let i = 1; i < K - 1; i++) for (let j = 1; j < K - 1; j++) f[i * K + j] = 1; // spline of a constant is exact
  const { u, stats } = solvePcg(K - 1, A, f, tol);
  const cells = spline2(u, plan(K, false));
  return { nodalCoef, nodal: u, cells, stats };
}

export function darcyCoefficient(seed: number, index: number, K: number, p: Pick<DarcyParams, 'alpha' | 'tau' | 'high' | 'low'>): Float64Array {
  const g = darcyGrf(sampleRng(seed, 'darcy', index), K, p.alpha, p.tau);
  const a = new Float64Array(K * K);
  for (let i = 0; i < K * K; i++) a[i] = g[i] >= 0 ? p.high : p.low;
  return a;
}

export function strideOf(fine: number, coarse: number): number {
  if (coarse === fine) return 1;
  const r = (fine - 1) / (coarse - 1);
  if (!Number.isInteger(r)) throw new Error(`darcy: resolution ${coarse} is not a stride of ${fine} ((${fine}-1)/(${coarse}-1) must be an integer)`);
  return r;
}

export function darcySample(seed: number, index: number, p: DarcyParams): { coeff: Float32Array; sol: Float32Array; stats: SolveStats } {
  const K = p.solveResolution;
  const s = p.resolution;
  const r = strideOf(K, s);
  const a = darcyCoefficient(seed, index, K, p);
  const { cells, stats } = solveGwf(a, K, p.tol);
  const coeff = new Float32Array(s * s);
  const sol = new Float32Array(s * s);
  for (let i = 0; i < s; i++)
    for (let j = 0; j < s; j++) {
      coeff[i * s + j] = a[i * r * K + j * r];
      sol[i * s + j] = cells[i * r * K + j * r];
    }
  return { coeff, sol, stats };
}
