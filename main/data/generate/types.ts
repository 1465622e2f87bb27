// Contract between the benchmark generators and everything that uses them (CLI, engine jobs, UI).
// A generator returns its arrays in exactly the layout of the published benchmark files
// (Burgers `a`,`u` [N,s]; Darcy `coeff`,`sol` [N,s,s]; Navier-Stokes `a` [N,s,s] (initial vorticity),
// `u` [N,s,s,T] and `t` [1,T] (record times);
// airfoil `NACA_Cylinder_X`,`_Y` [N,221,51] and `_Q` [N,5,221,51]) so that the data
// pipeline treats generated data and loaded files the same way.
import type { NdArray } from '../ndarray';
import type { Benchmark } from '../data-spec';

/** One of BENCHMARKS (main/data/data-spec.ts). */
export type BenchmarkName = Benchmark;
export type PresetName = 'tiny' | 'quick' | 'paper';

export interface GenerateOptions {
  preset: PresetName;
  /** Overrides of the preset. */
  resolution?: number;
  samples?: number;
  seed?: number;
  /** Navier-Stokes: number of recorded frames (t = 1..T). */
  frames?: number;
  /** Navier-Stokes: the training window (history frames in, frames out) the set is made for; frames >= tIn + tOut. */
  tIn?: number;
  tOut?: number;
  /** Darcy: clamp the splined coefficient to the data's range (not FNO's; recorded in the manifest). */
  clamp?: boolean;
  /**
   * Resolution transfer (Darcy, Burgers, Navier-Stokes): the solve grid of the native data. Each
   * sample's random field is then the one drawn at that grid, refined or truncated to this grid (the
   * same sample across grids).
   */
  nativeGrid?: number;
}

export interface GenerateProgress {
  done: number;      // samples finished
  total: number;     // samples requested
  message?: string;
}

export interface GenerateHooks {
  onProgress?: (p: GenerateProgress) => void;
  signal?: AbortSignal;
}

export interface GeneratedDataset {
  benchmark: BenchmarkName;
  /** Variables named as in the published files. */
  variables: Record<string, NdArray>;
  /** Everything needed to reproduce it: preset, resolved parameters, solver, seed, grid, whether fine-grid-then-stride was used. */
  manifest: Record<string, unknown>;
}
