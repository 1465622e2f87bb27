// The contract's calls for runs: listing, metrics, groups, notes and tags, checkpoints, evaluation, light maps, exports for a cluster.
// Spread into the one typed `methods` table of ../contract.ts (schemas and types only: no I/O).
import { z } from 'zod';
import { empty, EvaluationAsk, type MethodSpec, ReportParams, ReportResult } from '../method-spec';
import { DataSpec } from '../../data/data-spec';
import { EvaluationResult } from '../../train/evaluation-result';
import { MetricsRecord, RunId, RunMeta, RunState, RunStatus, RunSummary } from '../../runs/run-records';
import { LightMapsResult } from '../../model/lino/light-map-records';
import { FileRef } from '../files';
import { JobSummary } from '../jobs';

export const runsMethods = {
  /** Runs of the workspace (an interrupted run lists as such and can resume). */
  'runs.list': { route: 'host', params: empty, result: z.array(RunSummary) },
  'runs.get': {
    route: 'host',
    params: z.object({ id: z.string().max(128) }).strict(),
    result: z.object({ summary: RunSummary, config: z.record(z.string(), z.unknown()), status: RunStatus }),
  },
  /** Mean and std over the runs of a group (seeds) of their best validation errors. */
  'runs.group': {
    route: 'host',
    params: z.object({ group: z.string().max(200) }).strict(),
    result: z.object({
      group: z.string(),
      runs: z.array(z.object({ id: z.string(), name: z.string().optional(), seed: z.number().nullable(), state: RunState, params: z.number().nullable().optional(), trainSeconds: z.number().nullable().optional(), bestEpoch: z.number().nullable(), valRelL2: z.number().nullable(), valRelL2Decoded: z.number().nullable(), testRelL2: z.number().nullable() })),
      valRelL2: z.object({ mean: z.number(), std: z.number() }).nullable(),
      valRelL2Decoded: z.object({ mean: z.number(), std: z.number() }).nullable(),
      testRelL2: z.object({ mean: z.number(), std: z.number() }).nullable(),
    }),
  },
  /** Parsed metrics.jsonl from record `offset` (torn lines skipped); `next` is the offset to ask for next. */
  'runs.metrics': {
    route: 'host',
    params: z.object({ id: z.string().max(128), offset: z.number().int().min(0).default(0), type: z.enum(['step', 'epoch', 'all']).default('all') }).strict(),
    result: z.object({ records: z.array(MetricsRecord), next: z.number(), skipped: z.number() }),
  },
  'runs.delete': { route: 'host', params: z.object({ id: z.string().max(128) }).strict(), result: z.object({ ok: z.boolean() }) },
  /** Open a run's folder in the system's file manager (Electron); browser mode answers its path only. */
  'runs.reveal': { route: 'host', params: z.object({ id: z.string().max(128) }).strict(), result: z.object({ path: z.string(), opened: z.boolean() }) },
  /**
   * Import a PyTorch checkpoint (.pt, torch.save: the release's best_model.pt / last_model.pt or a
   * bare state_dict) chosen by the user as a new run; read with an allowlisting unpickler. With
   * `data`, its channels are checked against the checkpoint and the run evaluates like any other.
   */
  'runs.importCheckpoint': {
    route: 'engine+workspace', files: ['file'],
    params: z.object({ file: FileRef, data: DataSpec.optional(), name: z.string().min(1).max(200).optional() }).strict(),
    result: z.object({ runId: z.string(), notes: z.array(z.string()) }),
  },
  /** Set a run's notes and/or tags (runs/<id>/meta.json); answers what is stored now. */
  'runs.annotate': {
    route: 'host',
    params: z.object({ id: RunId, notes: RunMeta.shape.notes.unwrap().optional(), tags: RunMeta.shape.tags.unwrap().optional() }).strict(),
    result: RunMeta,
  },
  /** A run's checkpoints (best, last) with epoch, optimizer step, weights size and date. */
  'runs.checkpoints': {
    route: 'host',
    params: z.object({ id: RunId }).strict(),
    result: z.array(z.object({ checkpoint: z.enum(['best', 'last']), epoch: z.number(), step: z.number(), bytes: z.number(), savedAt: z.string(), bestValRelL2: z.number().nullable() })),
  },
  /** Copy a checkpoint's weights.safetensors into exports/ (then exports.read / exports.saveAs hand it over); answers the export's name. */
  'runs.exportCheckpoint': {
    route: 'host',
    params: z.object({ id: RunId, checkpoint: z.enum(['best', 'last']) }).strict(),
    result: z.object({ name: z.string(), size: z.number() }),
  },
  /**
   * "Run on a cluster": a 'cluster-export' job writing the run's data, config, the scaleout package,
   * run.sh, slurm.sbatch and a README into a new folder exports/<run>-cluster (the host picks it;
   * never a client path). Its result: { runId, folder, path, runDir, command, files }.
   */
  'runs.exportForCluster': {
    route: 'engine+workspace',
    params: z.object({ id: RunId, nprocPerNode: z.number().int().min(1).max(64).default(1), nodes: z.number().int().min(1).max(1024).default(1) }).strict(),
    result: JobSummary,
  },
  /**
   * The run's offline report: one self-contained HTML file (configuration with defaults, seed, data
   * provenance, environment, curves as inline SVG, tables in both relL2 conventions, notes and tags)
   * written to exports/report-<id>.html (replaced when asked again), with `pdf` also report-<id>.pdf;
   * exports.read / exports.saveAs hand them over.
   */
  'runs.report': { route: 'host', params: ReportParams, result: ReportResult },
  /** One sample's light maps of a LiNO run's checkpoint, with a query point's scattering kernel row. */
  'runs.lightMaps': {
    route: 'engine+workspace',
    params: z.object({
      id: RunId,
      checkpoint: z.enum(['best', 'last']).default('best'),
      split: z.enum(['train', 'val', 'test']).default('val'),
      sample: z.number().int().min(0).default(0),
      /** [i] (1D) or [i, j] (2D). */
      query: z.array(z.number().int().min(0)).min(1).max(2).optional(),
    }).strict(),
    result: LightMapsResult,
  },
  /**
   * Per block, Pearson r of each light map with the coefficient interface indicator |grad a| over a
   * split (pooled, and each sample's own r as mean ± std): a 'lightmaps-correlation' job, whose result is
   * a LightMapsCorrelationResult. Only LiNO runs on Darcy data (coefficient in input channel 0).
   */
  'runs.lightMapsCorrelation': {
    route: 'engine+workspace',
    params: z.object({
      id: RunId,
      checkpoint: z.enum(['best', 'last']).default('best'),
      split: z.enum(['train', 'val', 'test']).default('val'),
      /** The split's first maxSamples samples (all when absent). */
      maxSamples: z.number().int().min(1).max(1_000_000).optional(),
    }).strict(),
    result: JobSummary,
  },
  /** Evaluate a checkpoint (an 'evaluate' job; its result is an EvaluationResult). */
  'runs.evaluate': {
    route: 'engine+workspace',
    params: EvaluationAsk.extend({
      exportPredictions: z.boolean().default(false),
      /** With exportPredictions: three .npy files, or one MATLAB v7.3 .mat (prediction, reference, indices). */
      exportFormat: z.enum(['npy', 'mat']).default('npy'),
    }).strict(),
    result: JobSummary,
  },
  /** A finished evaluation of this run kept in its folder (same ask as runs.evaluate, on the checkpoint as it is now); null when none. */
  'runs.evaluation': {
    route: 'host',
    params: EvaluationAsk.strict(),
    result: EvaluationResult.nullable(),
  },
} as const satisfies Record<string, MethodSpec>;
