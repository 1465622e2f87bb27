// Darcy flow -div(a grad u) = 1 on the unit square, u = 0 on the boundary, following FNO's
// generator: a = threshold of a cosine-transform GRF (12 where >= 0, 3 where < 0) on s x s cell
// centres; solve_gwf: not-a-knot spline of a onto the s x s nodal grid (h = 1/(s-1)), 5-point finite
// differences with face coefficients (a_i + a_j)/2 on the unclamped coefficient, solved in float64
// (MINRES preconditioned by multigrid, banded LU as fallback; see solveGwf), and the nodal solution splined back to the cell centres.
import { sampleRng } from './rng';
import { darcyGrf } from './grf';
import { UniformSpline, spline2 } from './spline';
import { darcyStencil, solvePcg, type SolveStats } from './multigrid';
import { solveBandedStencil } from './banded-lu';
import { solveMinres } from './minres';

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
  /** Clamp the splined coefficient to [low, high] (not FNO's; off by default). */
  clamp: boolean;
  /**
   * Resolution transfer only: the solve grid of the native data whose random fields are to be
   * kept. The GRF is then that grid's draw refined or truncated to solveResolution (darcyGrf).
   */
  nativeGrid?: number;
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
  stats: SolveStats & { solver: DarcySolver; minCoef: number };
}

export type DarcySolver = 'banded-lu' | 'minres' | 'pcg';

/**
 * Largest grid the banded LU may take ((3K) K^2 doubles: 14 MB and ~0.13 s at 85, 0.9 s at 141). It
 * is the fallback: MINRES agrees with it to ~1e-14 and is 6-15x faster (85: ~15 ms), which the quick
 * set's 30 s budget needs.
 */
export const DIRECT_MAX_K = 160;

export interface SolveGwfOptions {
  /** Relative residual of the iterative solvers (the direct one is exact to rounding). */
  tol?: number;
  /**
   * Clamp the splined nodal coefficient to the data's range (NOT FNO: an option kept for the old
   * data, recorded in the manifest). Off, the operator is exactly solve_gwf.m's.
   */
  clamp?: boolean;
  /** Default: MINRES (banded LU if it fails on a grid up to DIRECT_MAX_K); pcg only with the clamp. */
  solver?: DarcySolver;
}

/**
 * FNO's solve_gwf for a K x K cell-centred coefficient and f = 1. The not-a-knot spline of 3/12 step
 * data overshoots, and its extrapolation onto the boundary nodes can go negative: the system is then
 * symmetric but not positive definite. solve_gwf.m solves it with MATLAB's direct `A\F`; here
 * MINRES (made for symmetric indefinite systems) preconditioned by a multigrid V-cycle does the same,
 * with a banded LU (the same elimination as a direct solve) as the fallback.
 */
export function solveGwf(coefCells: Float64Array, K: number, o: SolveGwfOptions = {}): DarcySolution {
  const tol = o.tol ?? 1e-10;
  const { nodalCoef, lo } = darcyNodalCoefficient(coefCells, K, o.clamp ?? false);
  let minCoef = Infinity;
  for (let i = 0; i < K * K; i++) minCoef = Math.min(minCoef, nodalCoef[i]);
  const A = darcyStencil(nodalCoef, K);
  const f = darcyForcing(K);
  let solver: DarcySolver = o.solver ?? (o.clamp ? 'pcg' : 'minres');
  if (solver === 'pcg' && !o.clamp) throw new Error('darcy: the pcg solver needs the clamped (positive definite) operator; use banded-lu or minres');
  let u: Float64Array, stats: SolveStats;
  if (solver === 'minres') {
    try {
      ({ u, stats } = solveMinres(K - 1, A, darcyStencil(precondCoef(nodalCoef, lo), K), f, tol));
    } catch (e) {
      if (o.solver || K > DIRECT_MAX_K) throw e;
      solver = 'banded-lu';
    }
  }
  if (solver === 'banded-lu') {
    u = solveBandedStencil(A, f, K);
    stats = { iterations: 0, relResidual: relResidual(A, u, f, K), levels: 0 };
  } else if (solver === 'pcg') {
    ({ u, stats } = solvePcg(K - 1, A, f, tol));
  }
  const cells = spline2(u!, plan(K, false));
  return { nodalCoef, nodal: u!, cells, stats: { ...stats!, solver, minCoef } };
}

/** ||f - A u|| / ||f|| over the interior. */
function relResidual(A: Float64Array, u: Float64Array, f: Float64Array, K: number): number {
  return darcyResidualMap(A, u, f, K).relative;
}

/**
 * r = f - A u on the interior nodes (zero on the boundary ring) and ||r|| / ||f||: the system the
 * solver solves, its boundary values eliminated as u = 0 (A's couplings to them are zero).
 */
export function darcyResidualMap(A: Float64Array, u: Float64Array, f: Float64Array, K: number): { map: Float64Array; relative: number } {
  const map = new Float64Array(K * K);
  let rr = 0, ff = 0;
  for (let i = 1; i < K - 1; i++) for (let j = 1; j < K - 1; j++) {
    const p = i * K + j, b = p * 9;
    const au = A[b + 1] * u[p - K] + A[b + 3] * u[p - 1] + A[b + 4] * u[p] + A[b + 5] * u[p + 1] + A[b + 7] * u[p + K];
    map[p] = f[p] - au;
    rr += map[p] ** 2;
    ff += f[p] ** 2;
  }
  return { map, relative: Math.sqrt(rr / ff) };
}

/** f = 1 on the interior nodes (the spline of a constant is exact), 0 on the boundary ring. */
export function darcyForcing(K: number): Float64Array {
  const f = new Float64Array(K * K);
  for (let i = 1; i < K - 1; i++) for (let j = 1; j < K - 1; j++) f[i * K + j] = 1;
  return f;
}

/** solve_gwf's nodal coefficient: the not-a-knot spline of the cell-centred one onto the nodes (clamped to its range with `clamp`). */
export function darcyNodalCoefficient(coefCells: Float64Array, K: number, clamp: boolean): { nodalCoef: Float64Array; lo: number; hi: number } {
  const nodalCoef = spline2(coefCells, plan(K, true));
  let lo = Infinity, hi = -Infinity;
  for (let i = 0; i < K * K; i++) { lo = Math.min(lo, coefCells[i]); hi = Math.max(hi, coefCells[i]); }
  if (clamp) for (let i = 0; i < K * K; i++) nodalCoef[i] = Math.min(hi, Math.max(lo, nodalCoef[i]));
  return { nodalCoef, lo, hi };
}

const nodeToCellLu = new Map<number, { lu: Float64Array; piv: Int32Array }>();
/**
 * The nodal field whose spline onto the cell centres is `cells` (K x K): the exact inverse of the
 * solver's last step (cells = M nodal M^T, M the K x K matrix of the 1-D nodes -> cells spline),
 * so that a stored solution can be put back into the solver's own system.
 */
export function darcyCellsToNodes(cells: ArrayLike<number>, K: number): Float64Array {
  let f = nodeToCellLu.get(K);
  if (!f) {
    const M = new Float64Array(K * K), e = new Float64Array(K), col = new Float64Array(K);
    const p = plan(K, false);
    for (let i = 0; i < K; i++) {
      e.fill(0); e[i] = 1;
      p.apply(e, 0, 1, col, 0, 1);
      for (let q = 0; q < K; q++) M[q * K + i] = col[q];
    }
    f = luFactor(M, K);
    nodeToCellLu.set(K, f);
  }
  const X = Float64Array.from(cells);
  const line = new Float64Array(K);
  for (let r = 0; r < K; r++) { // X <- X M^{-T}: each row solved with M
    for (let j = 0; j < K; j++) line[j] = X[r * K + j];
    luSolve(f, K, line);
    for (let j = 0; j < K; j++) X[r * K + j] = line[j];
  }
  for (let c = 0; c < K; c++) { // X <- M^{-1} X: each column
    for (let i = 0; i < K; i++) line[i] = X[i * K + c];
    luSolve(f, K, line);
    for (let i = 0; i < K; i++) X[i * K + c] = line[i];
  }
  return X;
}

/** Dense LU with partial pivoting (in place on a copy of A, row-major n x n). */
function luFactor(A: Float64Array, n: number): { lu: Float64Array; piv: Int32Array } {
  const lu = Float64Array.from(A), piv = new Int32Array(n);
  for (let k = 0; k < n; k++) {
    let m = k;
    for (let i = k + 1; i < n; i++) if (Math.abs(lu[i * n + k]) > Math.abs(lu[m * n + k])) m = i;
    piv[k] = m;
    if (m !== k) for (let j = 0; j < n; j++) { const t = lu[k * n + j]; lu[k * n + j] = lu[m * n + j]; lu[m * n + j] = t; }
    const d = lu[k * n + k];
    if (d === 0) throw new Error(`darcy: the ${n}-point node-to-cell spline is singular`);
    for (let i = k + 1; i < n; i++) {
      const l = (lu[i * n + k] /= d);
      if (l !== 0) for (let j = k + 1; j < n; j++) lu[i * n + j] -= l * lu[k * n + j];
    }
  }
  return { lu, piv };
}

function luSolve({ lu, piv }: { lu: Float64Array; piv: Int32Array }, n: number, b: Float64Array): void {
  for (let k = 0; k < n; k++) { const m = piv[k]; if (m !== k) { const t = b[k]; b[k] = b[m]; b[m] = t; } }
  for (let i = 1; i < n; i++) { let s = b[i]; for (let j = 0; j < i; j++) s -= lu[i * n + j] * b[j]; b[i] = s; }
  for (let i = n - 1; i >= 0; i--) { let s = b[i]; for (let j = i + 1; j < n; j++) s -= lu[i * n + j] * b[j]; b[i] = s / lu[i * n + i]; }
}

/**
 * Sample `index`'s thresholded coefficient on the K x K cells. With p.nativeGrid (another grid) it is
 * the coefficient drawn at that grid, refined or coarsened to K: the modes beyond the native grid
 * come from their own stream of the sample, so the native arrays and the first draws do not change.
 */
export function darcyCoefficient(seed: number, index: number, K: number, p: Pick<DarcyParams, 'alpha' | 'tau' | 'high' | 'low' | 'nativeGrid'>): Float64Array {
  const s0 = p.nativeGrid;
  const native = s0 !== undefined && s0 !== K ? { s0, extra: sampleRng(seed, 'darcy-refine', index) } : undefined;
  const g = darcyGrf(sampleRng(seed, 'darcy', index), K, p.alpha, p.tau, native);
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

export function darcySample(seed: number, index: number, p: DarcyParams): { coeff: Float32Array; sol: Float32Array; stats: DarcySolution['stats'] } {
  const K = p.solveResolution;
  const s = p.resolution;
  const r = strideOf(K, s);
  const a = darcyCoefficient(seed, index, K, p);
  const { cells, stats } = solveGwf(a, K, { tol: p.tol, clamp: p.clamp });
  const coeff = new Float32Array(s * s);
  const sol = new Float32Array(s * s);
  for (let i = 0; i < s; i++)
    for (let j = 0; j < s; j++) {
      coeff[i * s + j] = a[i * r * K + j * r];
      sol[i * s + j] = cells[i * r * K + j * r];
    }
  return { coeff, sol, stats };
}

/**
 * The coefficient the MINRES preconditioner's multigrid is built from: the true one with a positive
 * floor (a quarter of the low value), so its operator is SPD. Only the floor differs from the true
 * operator (the overshoot above the high value is kept): 10-11 iterations at 85^2, where clamping to
 * [low, high] needed 14-16.
 */
function precondCoef(c: Float64Array, low: number): Float64Array {
  const floor = low / 4;
  const out = new Float64Array(c.length);
  for (let i = 0; i < c.length; i++) out[i] = Math.max(c[i], floor);
  return out;
}
