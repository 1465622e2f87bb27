// The Playground's Navier-Stokes and airfoil inputs and truths: the generators' own
// solvers on one input. Navier-Stokes: a w0 drawn as the generator draws it (its GRF) with Gaussian
// vortices added, solved by nsSolve at the input's grid for T_in + T_out frames (the history the
// model is given, then the frames it rolls out). Airfoil: the 8 design nodes, the generator's mesh
// and panel flow (Mach on the C-grid), resized to the run's grid as the data pipeline resizes.
import { fnoForcing, nsSolve } from './navier-stokes';
import { nsGrf } from './grf';
import { airfoilFromDisplacements } from './airfoil';
import { sampleRng } from './rng';
import { PRESETS, type AirfoilParams, type NavierStokesParams } from './presets';
import { resizeSpatial, type ResizeMode } from '../stages/resize';
import { ndarray } from '../ndarray';

const NS = PRESETS['navier-stokes'].quick as NavierStokesParams;
const AIRFOIL = PRESETS.airfoil.quick as AirfoilParams;

/** Largest |w0| the Navier-Stokes solve takes: beyond it the adaptive step shrinks until a solve takes minutes. */
export const NS_MAX_VORTICITY = 50;
/** Grid sizes the Navier-Stokes solve takes (its FFT: powers of two). */
export const NS_GRID = { min: 8, max: 256 } as const;

/** An input the solver refuses, with the parameter field it is about (the same shape as SolverInputError). */
export class FlowInputError extends Error {
  constructor(readonly field: string, message: string) {
    super(`field '${field}': ${message}`);
    this.name = 'SolverInputError';
  }
}

export interface Vortex { x: number; y: number; radius: number; strength: number }

/** The run's generator parameters over the quick preset's (a run on imported data has none of its own). */
function params<T extends object>(preset: T, generator: Record<string, unknown>): T {
  const out = { ...preset } as Record<string, unknown>;
  for (const [k, v] of Object.entries(preset)) if (typeof generator[k] === typeof v || (k === 'dt' && (generator[k] === null || typeof generator[k] === 'number'))) out[k] = generator[k];
  return out as T;
}

export const nsParams = (generator: Record<string, unknown>) => params(NS, generator);
export const airfoilParams = (generator: Record<string, unknown>) => params(AIRFOIL, generator);

const isPow2 = (n: number) => n >= 2 && (n & (n - 1)) === 0;

/** Refuses a grid the Navier-Stokes solver cannot take, naming `field`. */
export function checkNsGrid(grid: number[], field: string): void {
  const [a, b] = grid;
  if (grid.length !== 2 || a !== b || !isPow2(a!) || a! < NS_GRID.min || a! > NS_GRID.max) {
    throw new FlowInputError(field, `navier-stokes solves on a square power-of-two grid from ${NS_GRID.min} to ${NS_GRID.max} points a side, got [${grid.join(', ')}]`);
  }
}

/** Refuses a w0 the solver cannot take in reasonable time: a grid it cannot take, |w0| above NS_MAX_VORTICITY. */
export function checkNsInput(grid: number[], channels: ArrayLike<number>[]): void {
  checkNsGrid(grid, 'input.grid');
  if (channels.length !== 1) throw new FlowInputError('input.channels', `${channels.length} channels, a Navier-Stokes solve starts from one: the initial vorticity w0`);
  const w = channels[0]!;
  for (let i = 0; i < w.length; i++) {
    if (!(Math.abs(w[i]!) <= NS_MAX_VORTICITY)) throw new FlowInputError(`input.channels.0.${i}`, `vorticity ${w[i]}, the solver takes |w0| <= ${NS_MAX_VORTICITY}`);
  }
}

/**
 * A fresh w0 on an s x s grid: the generator's GRF (its alpha, tau; the same seed gives the same
 * field), plus each vortex strength * exp(-d^2 / (2 r^2)) with d the periodic distance to (x, y).
 */
export function drawNsVorticity(seed: number, s: number, vortices: Vortex[], generator: Record<string, unknown>): Float64Array {
  checkNsGrid([s, s], 'resolution');
  const p = nsParams(generator);
  const w = nsGrf(sampleRng(seed, 'playground-ns', 0), s, p.alpha, p.tau);
  const wrap = (d: number) => d - Math.round(d);
  for (const v of vortices) {
    for (let i = 0; i < s; i++) {
      const dx = wrap(i / s - v.x);
      for (let j = 0; j < s; j++) {
        const dy = wrap(j / s - v.y);
        w[i * s + j]! += v.strength * Math.exp(-(dx * dx + dy * dy) / (2 * v.radius * v.radius));
      }
    }
  }
  return w;
}

export interface FlowTruth { channels: Float32Array[]; input: Float32Array[]; solver: string }

/** T_in + T_out frames from w0 at its own grid, as the generator records them (t = 1, 2, ...): the history, then the truth. */
export function nsTruth(grid: number[], w0: ArrayLike<number>, window: { tIn: number; tOut: number }, generator: Record<string, unknown>): FlowTruth {
  checkNsInput(grid, [w0]);
  const s = grid[0]!;
  const p = nsParams(generator);
  const run = nsSolve(Float64Array.from(w0), s, {
    nu: p.nu, forcing: p.forcing ? fnoForcing(s, p.forcing) : null, frames: window.tIn + window.tOut,
    scheme: p.dt ? 'euler' : 'ab2', dt: p.dt, cfl: p.cfl,
  });
  const frames = run.frames.map((f) => Float32Array.from(f));
  return {
    input: frames.slice(0, window.tIn),
    channels: frames.slice(window.tIn),
    solver: `navier-stokes pseudo-spectral CN/${p.dt ? 'Euler' : 'AB2'} (${run.steps} steps, nu ${p.nu}, ${window.tIn} history + ${window.tOut} frames)`,
  };
}

/** Refuses a design the generator would not draw: each displacement within [-d, d] (d its bound). */
export function checkDesign(design: ArrayLike<number>, generator: Record<string, unknown>, field = 'design'): void {
  const d = airfoilParams(generator).displacement;
  if (design.length !== 8) throw new FlowInputError(field, `${design.length} node displacements, expected 8 (4 upper, then 4 lower)`);
  for (let k = 0; k < 8; k++) {
    if (!(Math.abs(design[k]!) <= d)) throw new FlowInputError(`${field}.${k}`, `displacement ${design[k]}, the generator moves each node within [-${d}, ${d}]`);
  }
}

/** `a` [plane] resized from the generator's [ni, nj] to `grid` (the pipeline's resize), or as it is. */
function toGrid(a: Float32Array, from: number[], grid: number[], mode: ResizeMode): Float32Array {
  if (from.join() === grid.join()) return a;
  return Float32Array.from(resizeSpatial(ndarray(Float64Array.from(a), [1, ...from], 'float64'), grid, mode, 'resolution').arr.data as ArrayLike<number>);
}

/** The mesh (X, Y) and Mach on it for the design, on the run's `grid` (the generator's [ni, nj] resized as the pipeline does). */
export function airfoilTruth(design: ArrayLike<number>, grid: number[], generator: Record<string, unknown>, mode: ResizeMode = 'interpolate'): FlowTruth {
  checkDesign(design, generator);
  const p = airfoilParams(generator);
  const top = Array.from({ length: 4 }, (_, k) => design[k]!), bottom = Array.from({ length: 4 }, (_, k) => design[4 + k]!);
  const r = airfoilFromDisplacements(top, bottom, p);
  const plane = p.ni * p.nj;
  const mach = r.Q.subarray(4 * plane, 5 * plane);
  const from = [p.ni, p.nj];
  return {
    input: [toGrid(r.X, from, grid, mode), toGrid(r.Y, from, grid, mode)],
    channels: [toGrid(Float32Array.from(mach), from, grid, mode)],
    solver: `airfoil Hess-Smith panel flow, Karman-Tsien at M ${p.machInf} (circulation ${r.gamma.toFixed(4)}, max Mach ${r.maxMach.toFixed(3)})`,
  };
}
