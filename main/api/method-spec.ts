// What every call of the contract is: where it is answered (Route), its file-reference fields and
// its zod schemas (MethodSpec), and the schemas several areas share. Below ./methods/*, which
// ../contract.ts spreads into the one typed table.
import { z } from 'zod';
import { TransferSource } from '../data/transfer-source';

export const empty = z.object({}).strict();

/**
 * Where a call is answered; the service routes every call from this field alone.
 * - 'host': the host process answers it (workspace, file browser, run folders, UI state, exports),
 *   in WorkbenchService's handler of the same name; the host never loads the engine's code.
 * - 'engine': forwarded to the engine process as it is.
 * - 'engine+workspace': forwarded with the host's open workspace folder added as `workspace`.
 */
export type Route = 'host' | 'engine' | 'engine+workspace';

/**
 * One call of the contract. `files`: the params fields that hold a FileRef, as dotted paths
 * ('file', 'config.data.file'). The host resolves each to the path the user chose and passes it on
 * as `path` beside it (the reference itself is dropped), so no call past the host sees a reference
 * and no client names a path.
 */
export interface MethodSpec {
  route: Route;
  files?: readonly string[];
  params: z.ZodType;
  result: z.ZodType;
}

/** What an evaluation is asked for: runs.evaluate starts one, runs.evaluation finds a kept one with the same ask. */
export const EvaluationAsk = z.object({
  id: z.string().max(128),
  checkpoint: z.enum(['best', 'last']).default('best'),
  split: z.enum(['train', 'val', 'test']).default('val'),
  /** Other training resolutions to evaluate at (resolution transfer); the training one is always included. */
  resolutions: z.array(z.number().int().min(2).max(4096)).max(8).default([]),
  /**
   * The data at those resolutions: 'solved' at each by the workbench's generator (refused, naming
   * why, for data it did not make, e.g. an imported .mat), 'resampled' from the native grid by
   * interpolation; absent: solved where the generator can, resampled otherwise.
   */
  source: TransferSource.optional(),
  /** Autoregressive: rollout length (default: the run's T_out). */
  rolloutSteps: z.number().int().min(1).max(1000).optional(),
  /**
   * Return the best/median/worst samples' input, reference and prediction fields (Fields and
   * Rollout views), at every evaluated resolution; autoregressive runs return every rollout frame.
   */
  fields: z.boolean().default(false),
  /** More samples (rows of the split) whose fields are returned too, e.g. the same samples across runs. */
  indices: z.array(z.number().int().min(0)).max(16).default([]),
  /** Error spectra, physics checks and (LiNO) branch spectra, docs/diagnostics.md. */
  diagnostics: z.boolean().default(false),
});

/**
 * runs.report, sweeps.report, reproduce.report: the id, and whether to print the PDF beside the HTML
 * (a headless Chromium on the host's machine); answers the files written into exports/.
 */
export const ReportParams = z.object({ id: z.string().max(128), pdf: z.boolean().default(false) }).strict();
export const ReportResult = z.object({ name: z.string(), size: z.number(), pdf: z.string().nullable() });
