// The Playground's records: an input's fields, vortices and design, a prediction, a truth, a dataset
// sample (zod schemas only; the engine and train layers compute them, the contract carries them; the
// calls' own parameters are main/api/playground-wire.ts). An input arrives from a client: its size,
// shape and values are checked here, before anything reaches the engine; each refusal names the field.
import { z } from 'zod';
import { FLOAT32_MAX, firstNonFloat32, nonFloat32Message } from '../util/float32';

/** Most grid points of one input (a 512 x 512 grid): bounds the engine's and the solver's work. */
export const PLAYGROUND_MAX_POINTS = 512 * 512;
/** Most physical input channels an input may carry (a Navier-Stokes history is T_in frames, a rollout T_out). */
export const PLAYGROUND_MAX_CHANNELS = 64;
/** Most values of one input over all its channels (bounds the message and the forward pass). */
export const PLAYGROUND_MAX_VALUES = 2 ** 22;

const Values = z.array(z.number()).max(PLAYGROUND_MAX_POINTS, `at most ${PLAYGROUND_MAX_POINTS} values`);

/** Fields on a grid: one array per channel, row-major over `grid` (physical units, no coordinate channels). */
export const PlaygroundFields = z
  .object({
    grid: z.array(z.number().int().min(2, 'at least 2 points per axis').max(PLAYGROUND_MAX_POINTS)).min(1, 'one or two axes').max(2, 'one or two axes'),
    channels: z.array(Values).min(1, 'at least one channel').max(PLAYGROUND_MAX_CHANNELS, `at most ${PLAYGROUND_MAX_CHANNELS} channels`),
  })
  .strict()
  .superRefine((v, ctx) => {
    const points = v.grid.reduce((a, b) => a * b, 1);
    if (points > PLAYGROUND_MAX_POINTS) {
      ctx.addIssue({ code: 'custom', path: ['grid'], message: `[${v.grid.join(', ')}] is ${points} points, at most ${PLAYGROUND_MAX_POINTS} are accepted` });
      return;
    }
    if (points * v.channels.length > PLAYGROUND_MAX_VALUES) {
      ctx.addIssue({ code: 'custom', path: ['channels'], message: `${v.channels.length} channels of ${points} points, at most ${PLAYGROUND_MAX_VALUES} values in all are accepted` });
      return;
    }
    v.channels.forEach((c, i) => {
      if (c.length !== points) ctx.addIssue({ code: 'custom', path: ['channels', i], message: `${c.length} values, expected ${points} (the grid [${v.grid.join(', ')}], row-major)` });
    });
    // every value is stored and computed as float32: the first one that is not finite there is named
    for (const [i, c] of v.channels.entries()) {
      const at = firstNonFloat32(c);
      if (at >= 0) {
        ctx.addIssue({ code: 'custom', path: ['channels', i, at], message: nonFloat32Message(c[at]!) });
        return;
      }
    }
  });
export type PlaygroundFields = z.infer<typeof PlaygroundFields>;

/** Most vortices one Navier-Stokes input may add to its w0. */
export const PLAYGROUND_MAX_VORTICES = 8;
/** Largest vortex peak |strength| accepted (the generator's w0 stays within a few units). */
export const PLAYGROUND_MAX_VORTEX_STRENGTH = 20;

/** A Gaussian vortex added to a Navier-Stokes w0: strength * exp(-d^2 / (2 radius^2)), d periodic, x along the first axis. */
export const PlaygroundVortex = z
  .object({
    x: z.number().min(0, 'at least 0').max(1, 'at most 1'),
    y: z.number().min(0, 'at least 0').max(1, 'at most 1'),
    radius: z.number().min(0.01, 'at least 0.01').max(0.5, 'at most 0.5'),
    strength: z.number().min(-PLAYGROUND_MAX_VORTEX_STRENGTH, `at least -${PLAYGROUND_MAX_VORTEX_STRENGTH}`).max(PLAYGROUND_MAX_VORTEX_STRENGTH, `at most ${PLAYGROUND_MAX_VORTEX_STRENGTH}`),
  })
  .strict();
export type PlaygroundVortex = z.infer<typeof PlaygroundVortex>;

/**
 * Airfoil: the vertical displacements of the design element's 8 nodes, the 4 upper ones then the
 * 4 lower ones (leading edge to trailing edge), each within the run's generator's displacement bound.
 */
export const PlaygroundDesign = z.array(z.number().min(-FLOAT32_MAX, 'expected |v| <= 3.4028234e38 (finite in float32)').max(FLOAT32_MAX, 'expected |v| <= 3.4028234e38 (finite in float32)')).length(8, 'exactly 8 node displacements (4 upper, then 4 lower)');
export type PlaygroundDesign = z.infer<typeof PlaygroundDesign>;


/** A LiNO prediction's light maps, compact: per block its branches, their gates and which dominates each point. */
export const PlaygroundLightMaps = z.object({
  grid: z.array(z.number()),
  blocks: z.array(z.object({
    components: z.array(z.enum(['reflection', 'refraction', 'scattering'])),
    /** The branches' gates (alpha), in `components` order. */
    gates: z.array(z.number()),
    /** Per point, the index into `components` of the branch whose contribution is largest. */
    dominant: z.array(z.number()),
  })),
});
export type PlaygroundLightMaps = z.infer<typeof PlaygroundLightMaps>;

/** How far an input is from the training inputs, with a plain-language label. */
export const PlaygroundDistance = z.object({
  /** z-scores of the input's mean and std against the training samples' means and stds. */
  zMean: z.number(),
  zStd: z.number(),
  /** Fraction of the input's points off the training values: outside the training inputs' [min, max] (beyond float tolerance), or between a binary coefficient's two levels. */
  outside: z.number(),
  trainRange: z.tuple([z.number(), z.number()]),
  /** Training sds by which the input's mean (or spread; not for a binary coefficient) lies beyond the training samples' own range (0 inside it). */
  score: z.number(),
  level: z.enum(['in', 'edge', 'out']),
  label: z.string(),
});

export const PlaygroundPrediction = z.object({
  runId: z.string(),
  kind: z.string(),
  benchmark: z.string(),
  grid: z.array(z.number()),
  /** Decoded prediction, one array per target channel, row-major over grid. */
  prediction: z.array(z.array(z.number())),
  /** relL2 of the decoded prediction against `truth` (the evaluation's relL2Decoded), when a truth was given. */
  relL2: z.number().nullable(),
  distance: PlaygroundDistance,
  backend: z.string(),
  /** The forward pass alone, in milliseconds. */
  ms: z.number(),
  /** When asked for (lightMaps: true) of a LiNO run. */
  lightMaps: PlaygroundLightMaps.optional(),
  /** Autoregressive (Navier-Stokes): relL2 of each rollout step against the truth's frame (relL2 is the whole rollout's). */
  steps: z.array(z.number()).optional(),
});
export type PlaygroundPrediction = z.infer<typeof PlaygroundPrediction>;

/** A 'playground-solve' job's result: the built-in solver's solution for the input. */
export const PlaygroundTruth = z.object({
  grid: z.array(z.number()),
  truth: z.array(z.array(z.number())),
  /** The model's input the solver made, on `grid` (Navier-Stokes: the T_in history frames after w0; airfoil: the mesh X, Y). */
  input: z.array(z.array(z.number())).optional(),
  solver: z.string(),
  ms: z.number(),
});
export type PlaygroundTruth = z.infer<typeof PlaygroundTruth>;

/** A fresh input drawn as the run's benchmark draws them (Darcy: a thresholded Gaussian random field). */
/** The dataset written or appended to; `samples`: how many its split holds now. */
/** The workspace's datasets a sample of the run on `grid` could be appended to (playground.save with `into`), each with why not when it cannot. */
/** One of the run's own dataset samples as the Playground's input, with its stored truth. */
export const PlaygroundSample = z.object({
  input: PlaygroundFields,
  truth: PlaygroundFields,
  split: z.enum(['val', 'test']),
  index: z.number(),
  /** Samples in the split. */
  count: z.number(),
});
export type PlaygroundSample = z.infer<typeof PlaygroundSample>;

/**
 * The shown arrays as .npy files (float32, [...grid, channels]) in a new folder of the workspace's
 * exports/: input.npy, prediction.npy (the engine's own prediction of `input`), and with a truth,
 * truth.npy and error.npy (|prediction - truth|). A client names the folder, never a path.
 */
