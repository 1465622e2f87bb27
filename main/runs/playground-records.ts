// What the Playground calls (issue 25) take and answer: zod schemas only, re-exported for the
// renderer by main/api/contract.ts. An input arrives from a client: its size, shape and values are
// checked here, before anything reaches the engine, and each refusal names the field.
import { z } from 'zod';
import { RunId } from './run-records';

/** Most grid points of one input (a 512 x 512 grid): bounds the engine's and the solver's work. */
export const PLAYGROUND_MAX_POINTS = 512 * 512;
/** Most physical input channels an input may carry. */
export const PLAYGROUND_MAX_CHANNELS = 8;

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
    v.channels.forEach((c, i) => {
      if (c.length !== points) ctx.addIssue({ code: 'custom', path: ['channels', i], message: `${c.length} values, expected ${points} (the grid [${v.grid.join(', ')}], row-major)` });
    });
  });
export type PlaygroundFields = z.infer<typeof PlaygroundFields>;

const Checkpoint = z.enum(['best', 'last']).default('best');

export const PlaygroundPredictParams = z
  .object({
    id: RunId,
    checkpoint: Checkpoint,
    input: PlaygroundFields,
    /** The solver's truth for this input (target channels on the same grid): the answer then carries relL2. */
    truth: PlaygroundFields.optional(),
    /** LiNO runs: the light maps of this input too (per block, the dominant branch and the gates), from the same forward pass. */
    lightMaps: z.boolean().default(false),
  })
  .strict();

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
  /** Fraction of the input's points outside the training inputs' [min, max]. */
  outside: z.number(),
  trainRange: z.tuple([z.number(), z.number()]),
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
});
export type PlaygroundPrediction = z.infer<typeof PlaygroundPrediction>;

export const PlaygroundSolveParams = z.object({ id: RunId, input: PlaygroundFields }).strict();

/** A 'playground-solve' job's result: the built-in solver's solution for the input. */
export const PlaygroundTruth = z.object({ grid: z.array(z.number()), truth: z.array(z.array(z.number())), solver: z.string(), ms: z.number() });
export type PlaygroundTruth = z.infer<typeof PlaygroundTruth>;

/** A fresh input drawn as the run's benchmark draws them (Darcy: a thresholded Gaussian random field). */
export const PlaygroundDrawParams = z
  .object({
    id: RunId,
    /** Points per axis (default: the run's own grid). */
    resolution: z.number().int().min(8, 'at least 8').max(512, 'at most 512').optional(),
    seed: z.number().int().min(0).max(2 ** 31 - 1),
    /** The field's inverse length scale (FNO's tau: larger, finer features). */
    tau: z.number().min(0.5, 'at least 0.5').max(30, 'at most 30').default(3),
    /** Where the field is cut into the two coefficient values (0: FNO's). */
    threshold: z.number().min(-3, 'at least -3').max(3, 'at most 3').default(0),
  })
  .strict();

export const PlaygroundSaveParams = z
  .object({
    id: RunId,
    input: PlaygroundFields,
    truth: PlaygroundFields,
    /** The new dataset's id is made from it (never an existing dataset's). */
    name: z.string().max(60).regex(/^[A-Za-z0-9][A-Za-z0-9._-]*$/, 'letters, digits, . _ - (a dataset id)').default('playground'),
    /** Append the sample to this existing workspace dataset (its `split`) instead of making a new one. */
    into: z.string().max(128).regex(/^[A-Za-z0-9][A-Za-z0-9._-]*$/, 'a dataset id').optional(),
    split: z.enum(['train', 'val', 'test']).default('val'),
  })
  .strict();
/** The dataset written or appended to; `samples`: how many its split holds now. */
export const PlaygroundSaved = z.object({ datasetId: z.string(), grid: z.array(z.number()), split: z.string().optional(), samples: z.number().optional() });

/** One of the run's own dataset samples as the Playground's input, with its stored truth. */
export const PlaygroundSampleParams = z
  .object({
    id: RunId,
    checkpoint: Checkpoint,
    split: z.enum(['val', 'test']).default('val'),
    index: z.number().int().min(0, 'at least 0').max(10_000_000),
  })
  .strict();
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
export const PlaygroundExportParams = z
  .object({
    id: RunId,
    checkpoint: Checkpoint,
    input: PlaygroundFields,
    truth: PlaygroundFields.optional(),
    name: z.string().max(60).regex(/^[A-Za-z0-9][A-Za-z0-9._-]*$/, 'letters, digits, . _ - (a folder name)').default('playground'),
  })
  .strict();
export const PlaygroundExported = z.object({ folder: z.string(), path: z.string(), files: z.array(z.string()) });
