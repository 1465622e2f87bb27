// The Playground's truth and fresh inputs: the benchmark generators' own solvers run on
// one input the user painted or shaped, at the grid it came on (no fine grid, no striding), and a
// fresh Darcy coefficient drawn as the generator draws them with the length scale and cut chosen.
import { solveGwf } from './darcy';
import { darcyGrf, grf1Coefficients, grf1Sample } from './grf';
import { burgersSolve } from './burgers';
import { sampleRng } from './rng';
import { PRESETS, type BurgersParams, type DarcyParams } from './presets';
import { airfoilTruth, checkDesign, checkNsInput, nsTruth } from './playground-flows';
import type { ResizeMode } from '../stages/resize';

export interface Truth {
  /** Target channels, row-major over the grid. */
  channels: Float32Array[];
  /** The model's input the solver made (Navier-Stokes: the history frames; airfoil: the mesh X, Y). */
  input?: Float32Array[];
  solver: string;
}

/** What the Navier-Stokes and airfoil solves take beside the input: the run's window, the design nodes. */
export interface SolveExtra { window?: { tIn: number; tOut: number }; design?: number[]; resizeMode?: ResizeMode }

const DARCY = PRESETS.darcy.quick as DarcyParams;
const BURGERS = PRESETS.burgers.quick as BurgersParams;

/** Benchmarks the Playground can solve (its truth); the others answer an error naming the benchmark. */
export const SOLVABLE = ['darcy', 'burgers', 'navier-stokes', 'airfoil'] as const;

const isPow2 = (n: number) => n >= 2 && (n & (n - 1)) === 0;

/**
 * Refuses, before a solve is queued, an input the benchmark's solver cannot take: Darcy on a square
 * grid with a positive coefficient, Burgers on a power-of-two periodic grid. Errors name the field.
 */
export function checkSolvable(benchmark: string, grid: number[], input: ArrayLike<number>[], extra: SolveExtra = {}, generator: Record<string, unknown> = {}): void {
  if (benchmark === 'navier-stokes') {
    checkNsInput(grid, input);
  } else if (benchmark === 'airfoil') {
    if (!extra.design) throw new SolverInputError('design', 'an airfoil solve takes the 8 design-node displacements');
    checkDesign(extra.design, generator);
  } else if (benchmark === 'darcy') {
    if (grid.length !== 2 || grid[0] !== grid[1]) throw new SolverInputError('input.grid', `darcy solves on a square grid, got [${grid.join(', ')}]`);
    let lo = Infinity;
    for (let i = 0; i < input[0]!.length; i++) lo = Math.min(lo, input[0]![i]!);
    if (!(lo > 0)) throw new SolverInputError('input.channels.0', `a Darcy coefficient must be positive everywhere, its smallest value is ${lo}`);
  } else if (benchmark === 'burgers') {
    if (grid.length !== 1 || !isPow2(grid[0]!)) throw new SolverInputError('input.grid', `burgers solves on a power-of-two 1D grid, got [${grid.join(', ')}]`);
  } else {
    throw new SolverInputError('id', `the run's benchmark '${benchmark}' has no built-in solver here (the Playground solves ${SOLVABLE.join(', ')})`);
  }
}

/** An input the solver refuses, with the parameter field it is about. */
export class SolverInputError extends Error {
  constructor(readonly field: string, message: string) {
    super(`field '${field}': ${message}`);
    this.name = 'SolverInputError';
  }
}

/** -div(a grad u) = 1 on the painted coefficient's own cell grid, FNO's solve_gwf (MINRES, banded LU fallback). */
function darcyTruth(grid: number[], coef: ArrayLike<number>): Truth {
  const { cells, stats } = solveGwf(Float64Array.from(coef), grid[0]!, { tol: DARCY.tol });
  return { channels: [Float32Array.from(cells)], solver: `darcy ${stats.solver} (${stats.iterations} iterations, residual ${stats.relResidual.toExponential(1)})` };
}

/** Viscous Burgers from u0 on the periodic grid x_j = j/n to T = 1, the generator's pseudo-spectral solver. */
function burgersTruth(grid: number[], u0: ArrayLike<number>, p: { nu: number; T: number; cfl: number }): Truth {
  const run = burgersSolve(Float64Array.from(u0), p.nu, p.T, p.cfl);
  return { channels: [Float32Array.from(run.uT)], solver: `burgers pseudo-spectral (${run.steps} steps, nu ${p.nu})` };
}

/**
 * The truth for an input of `benchmark`; `generator` is the run's data's generator parameters when
 * it was generated (its nu, T), else the quick preset's.
 */
export function solveTruth(benchmark: string, grid: number[], input: ArrayLike<number>[], generator: Record<string, unknown> = {}, extra: SolveExtra = {}): Truth {
  checkSolvable(benchmark, grid, input, extra, generator);
  if (benchmark === 'navier-stokes') return nsTruth(grid, input[0]!, extra.window ?? { tIn: 10, tOut: 10 }, generator);
  if (benchmark === 'airfoil') return airfoilTruth(extra.design!, grid, generator, extra.resizeMode);
  if (benchmark === 'darcy') return darcyTruth(grid, input[0]!);
  if (benchmark === 'burgers') {
    const num = (k: string, d: number) => (typeof generator[k] === 'number' ? (generator[k] as number) : d);
    return burgersTruth(grid, input[0]!, { nu: num('nu', BURGERS.nu), T: num('T', BURGERS.T), cfl: num('cfl', BURGERS.cfl) });
  }
  throw new SolverInputError('id', `no built-in solver for '${benchmark}'`);
}

/**
 * A fresh Darcy coefficient on an s x s grid: FNO's GRF (alpha 2, inverse length scale tau), cut at
 * `threshold` standard deviations into 12 (above) and 3 (below). The same seed gives the same field.
 */
export function drawDarcyCoefficient(seed: number, s: number, tau: number, threshold: number): Float32Array {
  const g = darcyGrf(sampleRng(seed, 'playground-darcy', 0), s, DARCY.alpha, tau);
  let sum = 0, sq = 0;
  for (const v of g) { sum += v; sq += v * v; }
  const mean = sum / g.length;
  const cut = mean + threshold * Math.sqrt(Math.max(0, sq / g.length - mean * mean));
  return Float32Array.from(g, (v) => (v >= cut ? DARCY.high : DARCY.low));
}

/** A fresh Burgers u0 on n periodic points (n a power of two): the generator's GRF (its gamma, tau, sigma). */
export function drawBurgersU0(seed: number, n: number): Float32Array {
  if (!isPow2(n)) throw new SolverInputError('resolution', `burgers draws on a power-of-two grid, got ${n}`);
  const { alpha, beta } = grf1Coefficients(sampleRng(seed, 'playground-burgers', 0), n / 2, BURGERS.gamma, BURGERS.tau, BURGERS.sigma);
  return Float32Array.from(grf1Sample(alpha, beta, n));
}
