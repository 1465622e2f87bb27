// The WorkbenchApi contract: every call the renderer can make, with zod schemas for its
// parameters and result, and every event the engine side can push. Both hosts (Electron IPC
// and the localhost WebSocket) validate against these schemas before anything reaches a
// service, and the renderer's types come from here, so a renamed call is a compile error.
// Types and schemas only: no I/O, importable from the renderer.
import { z } from 'zod';
// Domain types live in the modules that own them, re-exported here: the renderer imports main/api alone.
import { ModelConfig } from '../model/kinds';
import { describeIssue } from '../util/zod-issues';
import { ReproducePresetInfo, ReproduceStartParams, StoredReproductions } from './reproduce';
import { ApiError } from './api-error';
import { DataSpec, Benchmark } from '../data/data-spec';
import { DatasetId, DatasetSample, DatasetStats } from '../data/dataset-records';
import { Calibration } from '../train/config';
import { TorchReport } from '../train/torch-report';
import { EvaluationResult } from '../train/evaluation-result';
import { MetricsRecord, RunId, RunMeta, RunState, RunStatus, RunSummary } from '../runs/run-records';
import { LightMapsResult } from '../model/lino/light-map-records';
import { ModelEstimate } from '../model/estimate-result';
import { EXPORT_MAX_BYTES, ExportEntry, ExportName, ExportPath, FileEntry, FileRef, FileRoot } from './files';
import { EngineInfo, HostInfo, UiState, WorkspaceSummary } from './host-records';
import { GenerateParams, ImportParams, JobStartParams, JobSummary } from './jobs';
import type { WorkbenchEvent } from './events';
import { ApiTrainConfig } from './api-train-config';
import { SweepDetail, SweepSummary } from '../sweep/sweep-types';
import { PlaygroundDrawParams, PlaygroundExportParams, PlaygroundExported, PlaygroundFields, PlaygroundPredictParams, PlaygroundPrediction, PlaygroundSample, PlaygroundSampleParams, PlaygroundSaveParams, PlaygroundSaved, PlaygroundSolveParams } from '../runs/playground-records';

// The wire's records and the domain schemas it carries, re-exported so the renderer imports main/api alone.
export * from './domain';

const empty = z.object({}).strict();

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

/**
 * Every call: name -> where it runs, its file-reference fields, params schema, result schema.
 * A new call is one entry here (plus its handler in the service for 'host', in main/engine/engine.ts otherwise).
 */
export const methods = {
  // ---- UI state and the exports/ folder ----
  /** The UI state saved in <workspace>/.lino/ui-state.json; null when none (or unreadable: `warning` says why). */
  'ui.state.get': { route: 'host', params: empty, result: z.object({ state: UiState.nullable(), warning: z.string().optional() }) },
  'ui.state.set': { route: 'host', params: z.object({ state: UiState }).strict(), result: z.object({ bytes: z.number() }) },
  /** Files in the workspace's exports/ folder (and one level of sub-folders), newest first. */
  'exports.list': { route: 'host', params: empty, result: z.array(ExportEntry) },
  /** One export's bytes (base64), for a browser download. */
  'exports.read': { route: 'host', params: z.object({ name: ExportPath }).strict(), result: z.object({ name: z.string(), mime: z.string(), size: z.number(), data: z.string() }) },
  /** Electron: copy an export to where the user chooses in a native save dialog (null: cancelled). Browser mode answers null; the renderer downloads instead. */
  'exports.saveAs': { route: 'host', params: z.object({ name: ExportPath }).strict(), result: z.object({ path: z.string() }).nullable() },
  /** Per-channel min/max/mean/std of a stored dataset's split, computed from the store. */
  'datasets.stats': {
    route: 'engine+workspace',
    params: z.object({ id: DatasetId, split: z.enum(['train', 'val', 'test']).default('train') }).strict(),
    result: DatasetStats,
  },
  /** Export a stored dataset into exports/<id>-<layout>-<format>/ (an 'export' job: progress, cancel); as `lino data export`. */
  'datasets.export': {
    route: 'engine+workspace',
    params: z.object({ id: DatasetId, format: z.enum(['npy', 'mat73']).default('mat73'), layout: z.enum(['raw', 'prepared']).default('raw') }).strict(),
    result: JobSummary,
  },
  // ---- host, engine, workspace, files, jobs ----
  'host.info': { route: 'host', params: empty, result: HostInfo },
  'engine.info': { route: 'engine', params: empty, result: EngineInfo },
  'engine.ping': { route: 'engine', params: z.object({ t: z.number() }).strict(), result: z.object({ t: z.number(), engineTime: z.number() }) },
  'engine.restart': { route: 'host', params: empty, result: z.object({ pid: z.number() }) },
  'workspace.get': { route: 'host', params: empty, result: WorkspaceSummary },
  /** Switch workspace to a folder the user chose (a directory reference). */
  'workspace.open': { route: 'host', files: ['dir'], params: z.object({ dir: FileRef }).strict(), result: WorkspaceSummary },
  /** Browser mode's in-app file browser: list a folder under one of the allowed roots. */
  'files.list': {
    route: 'host',
    params: z.object({ root: FileRoot, rel: z.string().max(4096).default('') }).strict(),
    result: z.object({ root: FileRoot, rel: z.string(), parent: z.string().nullable(), entries: z.array(FileEntry) }),
  },
  /** Electron: native open dialog. Browser mode answers null (the renderer uses files.list). */
  'files.pickOpen': {
    route: 'host',
    params: z.object({ directory: z.boolean().default(false), title: z.string().max(200).optional() }).strict(),
    result: z.object({ ref: FileRef, name: z.string() }).nullable(),
  },
  /** Start a job by kind; its parameters are checked as the kind's own call checks them (no paths, no workspace). */
  'jobs.start': { route: 'engine+workspace', files: ['params.file'], params: JobStartParams, result: JobSummary },
  'jobs.cancel': { route: 'host', params: z.object({ id: z.string().max(64) }).strict(), result: z.object({ ok: z.boolean() }) },
  'jobs.list': { route: 'engine', params: empty, result: z.array(JobSummary) },
  /** The job lanes in the order they show, each with its slots (jobs at once); trainingSlots sets how many training runs run at once (a setting of this engine, each run in its own worker). */
  'jobs.lanes': {
    route: 'engine',
    params: z.object({ trainingSlots: z.number().int().min(1, 'at least 1').max(8, 'at most 8').optional() }).strict(),
    result: z.array(z.object({ lane: z.string(), slots: z.number().int(), running: z.number().int(), queued: z.number().int() })),
  },
  /** Save an export (figure or table) into the workspace's exports/ folder; answers the name it got. */
  'exports.save': {
    route: 'host',
    params: z
      .object({
        name: ExportName,
        mime: z.string().max(100).regex(/^[a-z]+\/[a-z0-9.+-]+$/, 'a MIME type such as image/svg+xml'),
        data: z.string().max(Math.ceil(EXPORT_MAX_BYTES / 3) * 4, `at most ${EXPORT_MAX_BYTES / 1024 / 1024} MiB`).regex(/^[A-Za-z0-9+/]*={0,2}$/, 'base64 data'),
      })
      .strict(),
    result: z.object({ name: z.string(), size: z.number() }),
  },
  /** The benchmark generators' presets (main/data/generate/presets.ts) with their parameters. */
  'datasets.presets': {
    route: 'engine',
    params: empty,
    result: z.array(z.object({ benchmark: Benchmark, presets: z.record(z.string(), z.record(z.string(), z.unknown())) })),
  },
  /** Generate a benchmark from a preset into the workspace's datasets/ (a 'generate' job: progress, ETA, cancel). */
  'datasets.generate': {
    route: 'engine+workspace',
    params: GenerateParams,
    result: JobSummary,
  },
  /** The variables of a data file the user chose (format detected by magic bytes), before loading anything. */
  'datasets.inspect': {
    route: 'engine+workspace', files: ['file'],
    params: z.object({ file: FileRef }).strict(),
    result: z.object({
      name: z.string(),
      format: z.string(),
      variables: z.array(z.object({ name: z.string(), shape: z.array(z.number()), dtype: z.string(), bytes: z.number(), unsupported: z.string().optional() })),
      /** Per-sample groups ('0000/data', ...) as the variables they stack into (layout.groups). */
      groups: z.array(z.object({ name: z.string(), shape: z.array(z.number()), dtype: z.string(), bytes: z.number() })).optional(),
      /** Layout suggestions read from the listing (time series, MATLAB order, groups). */
      hints: z.array(z.string()).optional(),
    }),
  },
  /** Prepare a chosen file into the workspace's dataset store (an 'import' job): input variables -> target. */
  'datasets.import': {
    route: 'engine+workspace', files: ['file'],
    params: ImportParams,
    result: JobSummary,
  },
  /** One sample of a stored dataset for preview: physical values per channel, row-major over the grid. */
  'datasets.sample': {
    route: 'engine+workspace',
    params: z
      .object({ id: z.string().max(128).regex(/^[A-Za-z0-9][A-Za-z0-9._-]*$/, 'a dataset id'), split: z.enum(['train', 'val', 'test']).default('val'), index: z.number().int().min(0).default(0) })
      .strict(),
    result: DatasetSample,
  },
  /** Parameter count, memory and FLOPs of one training step of a LiNO configuration on a grid. */
  'model.estimate': {
    route: 'engine',
    params: z
      .object({
        config: ModelConfig,
        grid: z.array(z.number().int().min(2).max(65536)).min(1).max(2),
        batch: z.number().int().min(1).max(4096).default(8),
        coordinates: z.boolean().default(true),
      })
      .strict(),
    result: ModelEstimate,
  },
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
  /** The user's own label of a dataset ('' clears it); answers the workspace with the new names. */
  'datasets.label': { route: 'host', params: z.object({ id: DatasetId, label: z.string().max(80).regex(/^[^\u0000-\u001f]*$/, 'no control characters') }).strict(), result: WorkspaceSummary },
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
    params: z.object({
      id: z.string().max(128),
      checkpoint: z.enum(['best', 'last']).default('best'),
      split: z.enum(['train', 'val', 'test']).default('val'),
      /** Other training resolutions to evaluate at (resolution transfer); the training one is always included. */
      resolutions: z.array(z.number().int().min(2).max(4096)).max(8).default([]),
      /** Autoregressive: rollout length (default: the run's T_out). */
      rolloutSteps: z.number().int().min(1).max(1000).optional(),
      exportPredictions: z.boolean().default(false),
      /** With exportPredictions: three .npy files, or one MATLAB v7.3 .mat (prediction, reference, indices). */
      exportFormat: z.enum(['npy', 'mat']).default('npy'),
      /**
       * Return the best/median/worst samples' input, reference and prediction fields (Fields and
       * Rollout views), at every evaluated resolution; autoregressive runs return every rollout frame.
       */
      fields: z.boolean().default(false),
      /** More samples (rows of the split) whose fields are returned too, e.g. the same samples across runs. */
      indices: z.array(z.number().int().min(0)).max(16).default([]),
    }).strict(),
    result: JobSummary,
  },
  /** A finished evaluation of this run kept in its folder (same ask as runs.evaluate, on the checkpoint as it is now); null when none. */
  'runs.evaluation': {
    route: 'host',
    params: z.object({
      id: z.string().max(128),
      checkpoint: z.enum(['best', 'last']).default('best'),
      split: z.enum(['train', 'val', 'test']).default('val'),
      resolutions: z.array(z.number().int().min(2).max(4096)).max(8).default([]),
      rolloutSteps: z.number().int().min(1).max(1000).optional(),
      fields: z.boolean().default(false),
      indices: z.array(z.number().int().min(0)).max(16).default([]),
    }).strict(),
    result: EvaluationResult.nullable(),
  },
  /** Queue a new run (config) or resume an existing one (resume: run id) from its last checkpoint. */
  'train.start': {
    route: 'host', files: ['config.data.file'],
    params: z.union([
      /** seeds > 1: a run group, one run per seed (config.seed, +1, ...), queued one after another. */
      z.object({ config: ApiTrainConfig, seeds: z.number().int().min(1).max(20).default(1) }).strict(),
      z.object({ resume: z.string().max(128) }).strict(),
    ]),
    result: z.object({ runId: z.string(), job: JobSummary, group: z.array(z.object({ runId: z.string(), job: JobSummary })).optional() }),
  },
  /**
   * Time a configuration before starting it: builds its model on the backend the run would use,
   * takes 1 warm-up and `steps` training steps on random data of the configured shape, disposes
   * everything. Refuses what train.start refuses for memory; a newer call cancels an older one.
   */
  'train.calibrate': {
    route: 'engine+workspace', files: ['config.data.file'],
    params: z.object({ config: ApiTrainConfig, steps: z.number().int().min(1).max(10).default(3) }).strict(),
    result: Calibration,
  },
  /** PyTorch for the 'torch' backend: the interpreter (LINO_PYTHON, else python3), its torch, devices; refresh probes again. */
  /**
   * The Python interpreter of the 'torch' backend, kept in the user's settings: python sets it (null:
   * back to LINO_PYTHON, else python3), omitted reads it. LINO_PYTHON, when set, wins over it.
   */
  'settings.python': {
    route: 'host',
    params: z.object({ python: z.string().min(1).max(4096).nullable().optional() }).strict(),
    result: z.object({ python: z.string().nullable(), envOverride: z.string().nullable() }),
  },
  'train.torch': { route: 'engine', params: z.object({ refresh: z.boolean().default(false) }).strict(), result: TorchReport },
  'train.pause': { route: 'engine+workspace', params: z.object({ id: z.string().max(128) }).strict(), result: z.object({ ok: z.boolean() }) },
  /** Continue a paused run, or queue an interrupted/stopped run to resume from its last checkpoint. */
  'train.resume': { route: 'engine+workspace', params: z.object({ id: z.string().max(128) }).strict(), result: z.object({ ok: z.boolean(), job: JobSummary.optional() }) },
  'train.stop': { route: 'engine+workspace', params: z.object({ id: z.string().max(128) }).strict(), result: z.object({ ok: z.boolean() }) },
  // ---- Reproductions of the paper's tables and figures (main/reproduce, types in ./reproduce.ts) ----
  /** The presets with their sizes and estimated times. */
  'reproduce.list': { route: 'engine', params: empty, result: z.array(ReproducePresetInfo) },
  /** Run one as a 'reproduce' job (progress, ETA, cancel); its result is a ReproduceResult (tables with the reported rows apart, files). */
  'reproduce.start': { route: 'engine+workspace', params: ReproduceStartParams, result: JobSummary },
  /** The finished reproductions, tables rebuilt from their runs on disk (main/reproduce/readback.ts). */
  'reproduce.results': { route: 'engine+workspace', params: empty, result: StoredReproductions },
  /**
   * Sweeps (main/sweep): start one from a sweep file's content (checked as sweep.json, errors name the
   * field; the same content resumes the same sweep), list them, read one (state, trials, analysis),
   * pause / resume / stop one. Trials are runs trained through train.start's engine path.
   */
  'sweeps.start': { route: 'engine+workspace', params: z.object({ config: z.record(z.string(), z.unknown()), id: z.string().max(128).optional() }).strict(), result: SweepSummary },
  'sweeps.list': { route: 'engine+workspace', params: empty, result: z.array(SweepSummary) },
  'sweeps.get': { route: 'engine+workspace', params: z.object({ id: z.string().max(128) }).strict(), result: SweepDetail },
  'sweeps.control': { route: 'engine+workspace', params: z.object({ id: z.string().max(128), action: z.enum(['pause', 'resume', 'stop']) }).strict(), result: SweepSummary },
  'playground.predict': { route: 'engine+workspace', params: PlaygroundPredictParams, result: PlaygroundPrediction }, // Playground (issue 25): main/runs/playground-records.ts
  'playground.solve': { route: 'engine+workspace', params: PlaygroundSolveParams, result: JobSummary },
  'playground.draw': { route: 'engine+workspace', params: PlaygroundDrawParams, result: PlaygroundFields },
  'playground.save': { route: 'engine+workspace', params: PlaygroundSaveParams, result: PlaygroundSaved },
  'playground.sample': { route: 'engine+workspace', params: PlaygroundSampleParams, result: PlaygroundSample },
  'playground.export': { route: 'engine+workspace', params: PlaygroundExportParams, result: PlaygroundExported },
} as const satisfies Record<string, MethodSpec>;

export type MethodName = keyof typeof methods;
export type Params<M extends MethodName> = z.input<(typeof methods)[M]['params']>;
export type Result<M extends MethodName> = z.output<(typeof methods)[M]['result']>;
/** A call's parameters as parseParams answers them (defaults filled in). */
export type ParsedParams<M extends MethodName> = z.output<(typeof methods)[M]['params']>;
/** The calls the host process answers itself, and those it forwards to the engine (see Route). */
export type HostMethod = { [M in MethodName]: (typeof methods)[M]['route'] extends 'host' ? M : never }[MethodName];
export type EngineMethod = Exclude<MethodName, HostMethod>;
/** The contract's file-reference fields of a call (its `files`). */
type FileField<M extends MethodName> = (typeof methods)[M] extends { files: readonly (infer F extends string)[] } ? F : never;
/** `T` with the (dotted) field `F` resolved by the host: the reference dropped, the chosen `path` beside it. */
type Resolved<T, F extends string> = [F] extends [never] ? T : T extends unknown
  ? F extends `${infer H}.${infer R}` ? (H extends keyof T ? Omit<T, H> & { [K in H]: Resolved<T[K], R> } : T) : F extends keyof T ? Omit<T, F> & { path: string } : T
  : never;
/** An engine call's parameters as its handler gets them: defaults filled in, references resolved, the workspace added. */
export type EngineParams<M extends EngineMethod> = Resolved<ParsedParams<M>, FileField<M>> &
  ((typeof methods)[M]['route'] extends 'engine+workspace' ? { workspace: string } : unknown);

/** The one API the renderer talks to; implemented by the Electron preload bridge and the WebSocket client. */
export interface WorkbenchApi {
  call<M extends MethodName>(method: M, params: Params<M>): Promise<Result<M>>;
  onEvent(listener: (event: WorkbenchEvent) => void): () => void;
}

export function isMethod(name: unknown): name is MethodName {
  return typeof name === 'string' && Object.prototype.hasOwnProperty.call(methods, name);
}

/** Validate a call's parameters; throws ApiError('invalid_params') naming the offending field. */
export function parseParams<M extends MethodName>(method: M, params: unknown): ParsedParams<M> {
  const schema = methods[method].params as z.ZodType;
  const r = schema.safeParse(params ?? {});
  if (!r.success) {
    // through unions too (train.start's config or resume): the field and what it expected
    const d = describeIssue(r.error.issues[0], params ?? {});
    const field = d.field || '(params)';
    throw new ApiError(`${method}: invalid parameter '${field}': ${d.text}`, 'invalid_params', { field });
  }
  return r.data as never;
}

