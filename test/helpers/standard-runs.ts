// The standard tiny runs that several test files set up with (trained once per test invocation by
// sharedRun in trained-run.ts and copied into each file's workspace): one configuration per model
// kind and benchmark, so that the files that need "a tiny FNO on Darcy" ask for the same run.
export type StandardKind = 'lino' | 'fno' | 'deeponet';

export const STANDARD_MODELS = {
  lino: { width: 8, depth: 1 },
  /** Darcy's LiNO has two blocks (the Playground's light maps are checked per block). */
  'lino-2': { width: 8, depth: 2 },
  fno: { kind: 'fno', width: 8, depth: 1, modes: 4 },
  deeponet: { kind: 'deeponet', width: 16, depth: 2, basis: 8 },
} as const;

/** Tiny generated sets: Darcy (s = 29), Navier-Stokes (32², 3 history frames -> 2), the airfoil mesh (221 × 51). */
export const STANDARD_DATA = {
  darcy: { kind: 'generate', benchmark: 'darcy', preset: 'tiny', train: 4, val: 2 },
  'navier-stokes': { kind: 'generate', benchmark: 'navier-stokes', preset: 'tiny', samples: 4, frames: 5, tIn: 3, tOut: 2, train: 2, val: 1, test: 1 },
  airfoil: { kind: 'generate', benchmark: 'airfoil', preset: 'tiny', train: 2, val: 1 },
} as const;

export type StandardBenchmark = keyof typeof STANDARD_DATA;

/** The configuration of the standard tiny run of a model kind on a benchmark (one epoch, seed 1). */
export function standardRun(benchmark: StandardBenchmark, kind: StandardKind): Record<string, unknown> {
  const model = benchmark === 'darcy' && kind === 'lino' ? STANDARD_MODELS['lino-2'] : STANDARD_MODELS[kind];
  return { name: `tiny ${benchmark} ${kind}`, model, data: STANDARD_DATA[benchmark], epochs: 1, batchSize: 2, seed: 1 };
}

const DARCY_12 = { kind: 'generate', benchmark: 'darcy', preset: 'tiny', samples: 6, train: 4, val: 2, resolution: 12 } as const;
const NS_16 = { kind: 'generate', benchmark: 'navier-stokes', preset: 'tiny', samples: 5, frames: 6, train: 3, val: 2, tIn: 3, tOut: 3, resolution: 16 } as const;
const twoEpochs = { epochs: 2, batchSize: 2, optimizer: { lr: 5e-3 } } as const;

/**
 * The runs of the browser tests that set model kinds side by side (mixed-kinds, workflow-ui): each
 * kind on Darcy (12²) with two epochs (a curve of two points), and an FNO on Navier-Stokes (16²).
 */
export const KIND_RUNS = {
  lino: { name: 'mix lino', data: DARCY_12, model: { width: 4, depth: 1 }, ...twoEpochs },
  fno: { name: 'mix fno', data: DARCY_12, model: { kind: 'fno', width: 4, depth: 1, modes: 3 }, ...twoEpochs },
  deeponet: { name: 'mix deeponet', data: DARCY_12, model: { kind: 'deeponet', width: 8, depth: 2, basis: 4 }, ...twoEpochs },
  ns: { name: 'mix fno ns', data: NS_16, model: { kind: 'fno', width: 4, depth: 1, modes: 3 }, ...twoEpochs, epochs: 1 },
} as const;
