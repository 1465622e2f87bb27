// An 'evaluate' job's result (runs.evaluate): zod schema only, re-exported by main/api/contract.ts.
import { z } from 'zod';
import { SplitMetrics } from '../runs/run-records';
import { BranchSpectraReport, SplitDiagnostics } from './diagnostics/schema';
import { TransferSource } from '../data/transfer-source';

export const EvaluationResult = z.object({
  runId: z.string(),
  checkpoint: z.enum(['best', 'last']),
  epoch: z.number(),
  split: z.enum(['train', 'val', 'test']),
  resolutions: z.array(z.object({
    grid: z.array(z.number()),
    /** How this grid's data were made: "generated at s = 29", "re-generated at s = 64", "resampled from s = 29 (…)". */
    origin: z.string().optional(),
    /**
     * A transfer grid's data: 'solved' at that grid by the generator (a super-resolution test), or
     * 'resampled' from the native grid by interpolation (not one; `origin` says why it was not solved).
     */
    source: TransferSource.optional(),
    n: z.number(),
    metrics: SplitMetrics,
    /** Sample indices (rows of the split) sorted by relL2 on normalized fields, best first. */
    order: z.array(z.number()),
    perSample: z.array(z.object({ index: z.number(), relL2: z.number(), relL2Decoded: z.number(), mse: z.number() })),
    best: z.number(),
    median: z.number(),
    worst: z.number(),
    /** Decoded predictions (.npy, or the .mat holding all three) in the workspace's exports folder, when asked for. */
    predictionsFile: z.string().optional(),
    /** Every exported file: predictions, the decoded reference and the rows' sample indices (.npy each, or one .mat). */
    exportFiles: z.array(z.string()).optional(),
    /**
     * With `fields: true` (training resolution, operator tasks): the best, median and worst
     * samples' physical fields, channels-last flattened per channel, row-major over `grid`.
     * At a transfer grid they are the native grid's best, median and worst samples (the same rows
     * of the split, the same source samples), so a sample keeps its identity across grids.
     */
    fields: z.array(z.object({
      /** 'index': a sample asked for by `indices`. */
      which: z.enum(['best', 'median', 'worst', 'index']),
      index: z.number(),
      /** The source sample of this row (a generated set: the generator's sample index, with the manifest's seed). */
      sourceIndex: z.number().optional(),
      relL2: z.number(),
      relL2Decoded: z.number(),
      /** Input channels (coordinates left out); autoregressive: the T_in history frames. */
      input: z.array(z.array(z.number())),
      /** Target channels; autoregressive: one entry per rollout step. */
      reference: z.array(z.array(z.number())),
      prediction: z.array(z.array(z.number())),
      /** Autoregressive: this trajectory's relL2 (decoded) at each rollout step. */
      stepRelL2: z.array(z.number()).optional(),
      /** With `diagnostics: true`: this sample's own error spectrum (per channel: per rollout step) and physics check, residual maps included. */
      diagnostics: SplitDiagnostics.optional(),
    })).optional(),
    /** With `diagnostics: true`: the error spectrum and the physics check (docs/diagnostics.md). */
    diagnostics: SplitDiagnostics.optional(),
  })),
  /** With `diagnostics: true` on a LiNO run: each block's branch spectra at the training grid. */
  branchSpectra: BranchSpectraReport.optional(),
});
export type EvaluationResult = z.infer<typeof EvaluationResult>;
