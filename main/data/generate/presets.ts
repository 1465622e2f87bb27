// Resolved parameters per benchmark and preset, shown (and editable) in the UI and written to the manifest.
//   tiny  : seconds, used by the tests;
//   quick : enough to train something meaningful; the quick Darcy set is the first-start card's
//           dataset and must generate in <= 30 s on a 2-core machine;
//   paper : the papers' sizes and FNO's procedure (fine grid, then striding).
// "tiny" and "quick" solve directly on (or near) the stored grid; `method` records which was done.
import type { BenchmarkName, GenerateOptions, PresetName } from './types';

export interface DarcyParams {
  benchmark: 'darcy';
  samples: number;
  /** Stored grid (s x s). */
  resolution: number;
  /** Grid the coefficient is drawn and the PDE solved on; stored = solve grid strided. */
  solveResolution: number;
  alpha: number; tau: number; high: number; low: number;
  /** Relative residual of the float64 iterative solve (1e-8: the solution is then within ~3e-10 of a direct solve). */
  tol: number;
  /** Clamp the splined coefficient to [low, high] before solving: NOT FNO's solve_gwf.m (off by default; kept for the older data). */
  clamp: boolean;
  /** Resolution transfer only: the native data's solve grid, whose random fields are kept (refined or truncated) at this grid. */
  nativeGrid?: number;
}

export interface BurgersParams {
  benchmark: 'burgers';
  samples: number;
  resolution: number;
  /** Pseudo-spectral grid; stored values are its points strided. */
  solveResolution: number;
  /** Number of GRF modes (FNO: solveResolution / 2). */
  modes: number;
  /** Resolution transfer only: the native data's solve grid, whose nativeGrid / 2 random modes are kept at this grid. */
  nativeGrid?: number;
  nu: number; T: number;
  gamma: number; tau: number; sigma: number;
  /** Time step bound as a CFL number on the solve grid (dt = cfl * dx / max|u0|, T / dt rounded up). */
  cfl: number;
}

export interface NavierStokesParams {
  benchmark: 'navier-stokes';
  samples: number;
  resolution: number;
  solveResolution: number;
  /** Resolution transfer only: the native data's solve grid, whose initial vorticity is kept (refined or truncated) at this grid. */
  nativeGrid?: number;
  /** Recorded frames at t = 1..frames. */
  frames: number;
  nu: number;
  alpha: number; tau: number;
  /** Fixed time step (paper: 1e-4) or null: a stability-bounded step chosen per unit of time. */
  dt: number | null;
  /** Safety factor on the step bound when dt is null (0.1 keeps the 20-frame error near 3e-5 relative to dt = 5e-5 forward Euler at 64^2). */
  cfl: number;
  /** Forcing amplitude (0.1 in FNO). */
  forcing: number;
  /**
   * The training window this set is made for (history frames in, frames rolled out): import and
   * training use it unless told otherwise, and generation refuses frames < tIn + tOut.
   */
  tIn: number; tOut: number;
}

export interface AirfoilParams {
  benchmark: 'airfoil';
  samples: number;
  /** C-grid points along the wrap-around direction and away from the wall (Geo-FNO: 221 x 51). */
  ni: number; nj: number;
  /** Grid points on the wake cut on each side (the airfoil has ni - 2 * wake points). */
  wake: number;
  machInf: number;
  /** Vertical displacement bound of the 8 design-element control nodes. */
  displacement: number;
  /** Far-field distance of the C-grid in chords. */
  farField: number;
}

export type GeneratorParams = DarcyParams | BurgersParams | NavierStokesParams | AirfoilParams;

const darcy = (samples: number, resolution: number, solveResolution = resolution): DarcyParams => ({
  benchmark: 'darcy', samples, resolution, solveResolution, alpha: 2, tau: 3, high: 12, low: 3, tol: 1e-8, clamp: false,
});
const burgers = (samples: number, resolution: number, solveResolution: number): BurgersParams => ({
  benchmark: 'burgers', samples, resolution, solveResolution, modes: solveResolution / 2,
  nu: 0.1, T: 1, gamma: 2, tau: 5, sigma: 25, cfl: 0.5,
});
const ns = (samples: number, resolution: number, solveResolution: number, frames: number, dt: number | null): NavierStokesParams => ({
  benchmark: 'navier-stokes', samples, resolution, solveResolution, frames, nu: 1e-3, alpha: 2.5, tau: 7, dt, cfl: 0.1, forcing: 0.1, tIn: 10, tOut: 10,
});
const airfoil = (samples: number): AirfoilParams => ({
  benchmark: 'airfoil', samples, ni: 221, nj: 51, wake: 30, machInf: 0.5, displacement: 0.05, farField: 20,
});

export const PRESETS: Record<BenchmarkName, Record<PresetName, GeneratorParams>> = {
  darcy: {
    tiny: darcy(6, 29),
    quick: darcy(1024, 85),            // 800 train / 224 validation, as the paper's split
    paper: darcy(1024, 421, 421),      // FNO's published files; lower resolutions stride the 421 grid
  },
  burgers: {
    tiny: burgers(4, 64, 256),
    quick: burgers(1024, 256, 1024),
    paper: burgers(2048, 8192, 8192),  // published file: 8192 points, the paper trains at 256
  },
  'navier-stokes': {
    tiny: ns(8, 32, 32, 20, null),     // the release's 10 -> 10 window (about 2 s); enough trajectories for train, validation and test
    quick: ns(300, 64, 64, 20, null),
    paper: ns(5000, 64, 256, 50, 1e-4),
  },
  airfoil: {
    tiny: airfoil(3),
    quick: airfoil(400),
    paper: airfoil(1200),              // the paper's 1000 / 200 split
  },
};

const isPow2 = (n: number) => Number.isInteger(n) && n >= 2 && (n & (n - 1)) === 0;

function bad(field: string, value: unknown, expected: string): never {
  throw new Error(`generate: option "${field}" = ${String(value)}: expected ${expected}`);
}

/** The preset with the options' overrides applied and checked. */
export function resolveParams(benchmark: BenchmarkName, options: GenerateOptions): GeneratorParams {
  const byPreset = PRESETS[benchmark];
  if (!byPreset) bad('benchmark', benchmark, 'darcy, burgers, navier-stokes or airfoil');
  const base = byPreset[options.preset];
  if (!base) bad('preset', options.preset, 'tiny, quick or paper');
  const p = structuredClone(base) as GeneratorParams;
  if (options.samples !== undefined) {
    if (!Number.isInteger(options.samples) || options.samples < 1 || options.samples > 1_000_000) bad('samples', options.samples, 'an integer in 1..1000000');
    p.samples = options.samples;
  }
  if (options.clamp !== undefined) {
    if (p.benchmark !== 'darcy') bad('clamp', options.clamp, 'only for darcy');
    if (typeof options.clamp !== 'boolean') bad('clamp', options.clamp, 'true or false');
    p.clamp = options.clamp;
  }
  const ng = options.nativeGrid;
  if (ng !== undefined) {
    if (p.benchmark === 'darcy') {
      if (!Number.isInteger(ng) || ng < 8 || ng > 421) bad('nativeGrid', ng, 'an integer in 8..421');
    } else if (p.benchmark === 'burgers') {
      if (!isPow2(ng) || ng < 16 || ng > 65536) bad('nativeGrid', ng, 'a power of two in 16..65536');
    } else if (p.benchmark === 'navier-stokes') {
      if (!isPow2(ng) || ng < 8 || ng > 1024) bad('nativeGrid', ng, 'a power of two in 8..1024');
    } else bad('nativeGrid', ng, 'only for darcy, burgers and navier-stokes');
  }
  if (options.seed !== undefined && (!Number.isSafeInteger(options.seed) || options.seed < 0)) bad('seed', options.seed, 'a non-negative integer');
  if (options.frames !== undefined) {
    if (p.benchmark !== 'navier-stokes') bad('frames', options.frames, 'only for navier-stokes');
    if (!Number.isInteger(options.frames) || options.frames < 1 || options.frames > 1000) bad('frames', options.frames, 'an integer in 1..1000');
    p.frames = options.frames;
  }
  for (const k of ['tIn', 'tOut'] as const) {
    const v = options[k];
    if (v === undefined) continue;
    if (p.benchmark !== 'navier-stokes') bad(k, v, 'only for navier-stokes');
    if (!Number.isInteger(v) || v < 1 || v > 1000) bad(k, v, 'an integer in 1..1000');
    p[k] = v;
  }
  // A set whose trajectories are shorter than its training window cannot be imported: refuse it here.
  if (p.benchmark === 'navier-stokes' && p.frames < p.tIn + p.tOut) {
    bad('frames', p.frames, `at least tIn + tOut = ${p.tIn} + ${p.tOut} = ${p.tIn + p.tOut} (the training window); lower tIn/tOut for a shorter set`);
  }
  const r = options.resolution;
  if (r !== undefined) {
    if (!Number.isInteger(r)) bad('resolution', r, 'an integer');
    switch (p.benchmark) {
      case 'darcy': {
        if (r < 8 || r > 421) bad('resolution', r, 'an integer in 8..421');
        if (options.preset === 'paper' && (p.solveResolution - 1) % (r - 1) === 0) p.resolution = r; // stride the 421 grid
        else { p.resolution = r; p.solveResolution = r; }
        break;
      }
      case 'burgers': {
        if (!isPow2(r) || r < 16 || r > 65536) bad('resolution', r, 'a power of two in 16..65536');
        p.resolution = r;
        if (r > p.solveResolution) { p.solveResolution = r; p.modes = r / 2; }
        break;
      }
      case 'navier-stokes': {
        if (!isPow2(r) || r < 8 || r > 1024) bad('resolution', r, 'a power of two in 8..1024');
        p.resolution = r;
        if (options.preset !== 'paper' || r > p.solveResolution) p.solveResolution = r;
        break;
      }
      case 'airfoil':
        bad('resolution', r, 'no resolution option for airfoil (the C-grid is 221 x 51)');
    }
  }
  // recorded only where it changes the draw: at the native solve grid the arrays are the native ones
  if (p.benchmark !== 'airfoil' && ng !== undefined && ng !== p.solveResolution) p.nativeGrid = ng;
  return p;
}

/** How the stored grid relates to the solve grid, for the manifest. */
export function methodOf(p: GeneratorParams): string {
  if (p.benchmark === 'airfoil') return 'vortex-panel potential flow + Karman-Tsien on a 221 x 51 C-grid (stand-in for transonic Euler)';
  if (p.resolution === p.solveResolution) return `solved directly on the stored ${p.resolution}-point grid`;
  return `solved on the ${p.solveResolution}-point grid, stored by striding to ${p.resolution}`;
}
