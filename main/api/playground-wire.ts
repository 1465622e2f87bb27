// The Playground calls' parameters and the answers only the wire carries, as the contract's
// playground area (./methods/playground.ts) checks them; the records the engine computes (fields,
// prediction, truth, sample) are the run layer's (main/runs/playground-records.ts).
import { z } from 'zod';
import { RunId } from '../runs/run-records';
import { PLAYGROUND_MAX_VORTICES, PlaygroundDesign, PlaygroundDistance, PlaygroundFields, PlaygroundPrediction, PlaygroundVortex } from '../runs/playground-records';
import { SplitDiagnostics } from '../train/diagnostics/schema';

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

export const PlaygroundSolveParams = z
  .object({
    id: RunId,
    /** The input to solve from (Navier-Stokes: the initial vorticity w0, one channel); airfoil runs take `design` instead. */
    input: PlaygroundFields.optional(),
    design: PlaygroundDesign.optional(),
  })
  .strict();

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
    /** Navier-Stokes: vortices added to the drawn w0. */
    vortices: z.array(PlaygroundVortex).max(PLAYGROUND_MAX_VORTICES, `at most ${PLAYGROUND_MAX_VORTICES} vortices`).optional(),
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

export const PlaygroundSaved = z.object({ datasetId: z.string(), grid: z.array(z.number()), split: z.string().optional(), samples: z.number().optional() });

export const PlaygroundAppendableParams = z
  .object({
    id: RunId,
    checkpoint: Checkpoint,
    grid: z.array(z.number().int().min(1).max(100_000)).min(1).max(3),
  })
  .strict();

export const PlaygroundAppendable = z.object({
  datasets: z.array(z.object({ id: z.string(), refusal: z.string().nullable() })),
});

export type PlaygroundAppendable = z.infer<typeof PlaygroundAppendable>;

export const PlaygroundSampleParams = z
  .object({
    id: RunId,
    checkpoint: Checkpoint,
    split: z.enum(['val', 'test']).default('val'),
    index: z.number().int().min(0, 'at least 0').max(10_000_000),
  })
  .strict();

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

/**
 * playground.predict's answer: the prediction (the run layer's record) and, on a 1-D or 2-D grid, its
 * diagnostics (docs/diagnostics.md): the physics check of the prediction (the truth's beside it when a
 * truth was given) and, with a truth, the error spectrum. Added here: the diagnostics' schema is the
 * train layer's, above the run layer's records.
 */
export const PlaygroundAnswer = PlaygroundPrediction.extend({ diagnostics: SplitDiagnostics.optional() });
export type PlaygroundAnswer = z.infer<typeof PlaygroundAnswer>;

export const PlaygroundTrustParams = z
  .object({
    id: RunId,
    checkpoint: Checkpoint,
    /** The input whose prediction is judged (a Fields sample's input, a Playground input). */
    input: PlaygroundFields,
  })
  .strict();

/**
 * How far to trust a run's prediction of one input: the spread of the prediction over the run's seed
 * group (every member with that checkpoint predicts the same input) and the input's distance to the
 * training inputs. The physics check comes with the prediction itself (PlaygroundAnswer, evaluations).
 */
export const PlaygroundTrust = z.object({
  runId: z.string(),
  /** The run's seed group (config.group); null: the run was trained alone. */
  group: z.string().nullable(),
  /** The group's runs that predicted (those with the checkpoint), the run itself among them. */
  members: z.array(z.object({
    id: z.string(),
    name: z.string(),
    seed: z.number().nullable(),
    /** ||prediction - group mean|| / ||group mean|| of this member. */
    fromMean: z.number(),
  })),
  /** With two or more members: per point and channel the std over the members (sample std), and ||std|| / ||mean||. */
  spread: z.object({
    grid: z.array(z.number()),
    std: z.array(z.array(z.number())),
    relative: z.number(),
  }).nullable(),
  /** Group runs left out, and why (no such checkpoint yet, another grid). */
  skipped: z.array(z.object({ id: z.string(), reason: z.string() })),
  distance: PlaygroundDistance,
});
export type PlaygroundTrust = z.infer<typeof PlaygroundTrust>;
