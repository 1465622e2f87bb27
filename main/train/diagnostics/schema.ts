// The diagnostics' results as zod schemas (an evaluation carries them: main/train/evaluation-result.ts);
// spectrum.ts and physics.ts compute them, their types come from here.
import { z } from 'zod';

const Band = z.number().nullable();
export const Bands = z.object({ low: Band, mid: Band, high: Band });

export const SpectrumSummary = z.object({
  /** Shell power spectra of the error and of the truth, shell k = 0..K-1. */
  error: z.array(z.number()),
  truth: z.array(z.number()),
  /** sqrt(E_err / E_truth) per shell (null: no truth power). */
  relative: z.array(z.number().nullable()),
  bandRelative: Bands,
  /** PDEBench's fRMSE low / mid / high (per sample: a batch of one). */
  fRmse: Bands,
});

export const SpectrumReport = z.object({
  grid: z.array(z.number()),
  /** Channels analysed (autoregressive targets: one per rollout step). */
  channels: z.number(),
  bands: z.object({ iLow: z.number(), iHigh: z.number() }),
  /** Over the split and the channels. */
  mean: SpectrumSummary,
  /** Over the split, per channel (a rollout: per step). */
  perChannel: z.array(SpectrumSummary),
  /** Per sample (row of the split), over the channels. */
  perSample: z.array(SpectrumSummary.extend({ index: z.number() })),
});

/** `truth`: the same quantity of the truth (null where no truth was given: a Playground input not solved yet). */
const PhysicsValue = z.object({ prediction: z.number(), truth: z.number().nullable() });
const ResidualMaps = z.object({ grid: z.array(z.number()), prediction: z.array(z.number()), truth: z.array(z.number()).nullable() });
export const PhysicsReport = z.object({
  benchmark: z.enum(['darcy', 'burgers', 'navier-stokes']),
  /** What the numbers are, in words. */
  quantity: z.string(),
  mean: PhysicsValue,
  perStep: z.array(PhysicsValue).optional(),
  perSample: z.array(PhysicsValue.extend({ index: z.number() })),
  /** Navier-Stokes: the vorticity-equation residual between consecutive frames (the first pair: the last history frame and step 1). */
  equation: z.object({
    quantity: z.string(),
    mean: PhysicsValue,
    perStep: z.array(PhysicsValue),
    /** The residual maps of the split's first sample at step 1. */
    map: ResidualMaps,
  }).optional(),
  /** Darcy: the residual maps (nodes, row-major) of the split's first sample. */
  map: ResidualMaps.optional(),
});

export const SplitDiagnostics = z.object({
  /** Null where the grid is not 1-D or 2-D (a mesh). */
  spectrum: SpectrumReport.nullable(),
  /** Null where the benchmark has no check (airfoil, custom data). */
  physics: PhysicsReport.nullable(),
});
export type SplitDiagnostics = z.infer<typeof SplitDiagnostics>;

const Branch = z.enum(['reflection', 'refraction', 'scattering']);
/** Per LiNO block, the shell spectrum of each branch's contribution to the residual stream (docs/diagnostics.md). */
export const BranchSpectraReport = z.object({
  grid: z.array(z.number()),
  /** Samples averaged. */
  samples: z.number(),
  bands: z.object({ iLow: z.number(), iHigh: z.number() }),
  blocks: z.array(z.object({
    components: z.array(Branch),
    /** Shell spectrum E(k), summed over the latent channels, averaged over the samples. */
    spectra: z.partialRecord(Branch, z.array(z.number())),
    /** Per band, this branch's share of the block's branch energy there (the shares of a band sum to 1). */
    bandShare: z.partialRecord(Branch, Bands),
  })),
});
export type BranchSpectraReport = z.infer<typeof BranchSpectraReport>;

/** Accuracy against cost (cost.ts and its benchmarks' files): solver and models timed on one machine in one process. */
export const CostReport = z.object({
  benchmark: z.enum(['darcy', 'burgers', 'navier-stokes']),
  samples: z.number(),
  seed: z.number(),
  /** The reference: the solve on this grid. */
  finest: z.number(),
  /** Darcy: the solver's relative residual tolerance. */
  tol: z.number().optional(),
  /** The solver and the data's parameters, in words. */
  solver: z.string(),
  /** What relL2 means in the rows (decoded; a rollout: the mean over its frames). */
  relL2Definition: z.string(),
  /** Navier-Stokes: the window (history frames in, frames rolled out) models and solver are compared on. */
  window: z.object({ tIn: z.number(), tOut: z.number() }).optional(),
  machine: z.object({ cpu: z.string(), cores: z.number(), backend: z.string() }),
  rows: z.array(z.object({
    kind: z.enum(['solver', 'model']),
    /** 'solver' or the run's id. */
    name: z.string(),
    /** The run's model kind (absent for the solver). */
    model: z.string().optional(),
    resolution: z.number(),
    /** Samples per forward pass (the solver: 1). */
    batch: z.number(),
    /** Wall seconds per sample after an untimed warm-up. */
    secondsPerSample: z.number(),
    /** Mean relL2 against the finest solve; null for the finest solve itself. */
    relL2: z.number().nullable(),
  })),
});
export type CostReport = z.infer<typeof CostReport>;
