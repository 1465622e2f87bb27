// The contract's calls for training: start, calibrate, pause/resume/stop, PyTorch's probe and its
// measured speed; the model
// estimate; accuracy against cost; the paper's reproductions.
// Spread into the one typed `methods` table of ../contract.ts (schemas and types only: no I/O).
import { z } from 'zod';
import { empty, type MethodSpec, ReportParams, ReportResult } from '../method-spec';
import { ModelConfig } from '../../model/kinds';
import { ReproducePresetInfo, ReproduceStartParams, StoredReproductions } from '../reproduce';
import { Calibration } from '../../train/config';
import { TORCH_DEVICES, TorchReport } from '../../train/torch-report';
import { TorchSpeed } from '../../train/torch-speed-record';
import { ModelEstimate } from '../../model/estimate-result';
import { JobSummary } from '../jobs';
import { ApiTrainConfig } from '../api-train-config';
import { RunId } from '../../runs/run-records';

export const trainMethods = {
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
  /**
   * Accuracy against cost (docs/diagnostics.md): the built-in solver at several resolutions and the
   * given runs' inference, timed in one engine worker: a 'cost' job whose result is a CostReport.
   */
  'cost.benchmark': {
    route: 'engine+workspace',
    params: z.object({
      benchmark: z.enum(['darcy', 'burgers', 'navier-stokes']),
      /**
       * Solver grids; the finest is the reference, each other must stride it (Darcy: 8..421 on the
       * 2^k + 1 ladder; Burgers: powers of two 16..8192; Navier-Stokes: powers of two 8..256). Empty:
       * around the first run's grid (Darcy s/2, s, 2s; Burgers s/2 .. 4s; Navier-Stokes s/2, s, 2s),
       * else Darcy 29, 57, 113; Burgers 128 .. 1024; Navier-Stokes 16, 32, 64.
       */
      resolutions: z.array(z.number().int().min(8).max(8192)).max(6).default([]),
      samples: z.number().int().min(1).max(64).default(4),
      /** Trained runs of this benchmark whose inference is timed (their grid must stride the finest). */
      runs: z.array(RunId).max(8).default([]),
      checkpoint: z.enum(['best', 'last']).default('best'),
      /** Samples per batched forward pass (default: all). */
      batch: z.number().int().min(1).max(64).optional(),
    }).strict(),
    result: JobSummary,
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
  'train.torch': { route: 'engine', params: z.object({ refresh: z.boolean().default(false) }).strict(), result: TorchReport },
  /**
   * How much faster torch trains than the engine here: the workspace's measurements for the current
   * interpreter and torch and the engine's current backend (one per device measured), newest kept.
   * `problem`: the stored file could not be read (measuring again replaces it).
   */
  'train.torchSpeed': {
    route: 'engine+workspace',
    params: empty,
    result: z.object({ engineBackend: z.string(), measured: z.array(TorchSpeed), problem: z.string().optional() }),
  },
  /**
   * Measure it (again): a 'torch-speed' job in the analysis lane's worker, its result a TorchSpeed,
   * kept in the workspace. Refused at once when the probe rules the device out.
   */
  'train.measureTorchSpeed': {
    route: 'engine+workspace',
    params: z.object({ device: z.enum(TORCH_DEVICES), steps: z.number().int().min(1).max(20).default(5) }).strict(),
    result: JobSummary,
  },
  'train.pause': { route: 'engine+workspace', params: z.object({ id: z.string().max(128) }).strict(), result: z.object({ ok: z.boolean() }) },
  /** Continue a paused run, or queue an interrupted/stopped run to resume from its last checkpoint. */
  'train.resume': { route: 'engine+workspace', params: z.object({ id: z.string().max(128) }).strict(), result: z.object({ ok: z.boolean(), job: JobSummary.optional() }) },
  'train.stop': { route: 'engine+workspace', params: z.object({ id: z.string().max(128) }).strict(), result: z.object({ ok: z.boolean() }) },
  /** The presets with their sizes and estimated times. */
  'reproduce.list': { route: 'engine', params: empty, result: z.array(ReproducePresetInfo) },
  /** Run one as a 'reproduce' job (progress, ETA, cancel); its result is a ReproduceResult (tables with the reported rows apart, files). */
  'reproduce.start': { route: 'engine+workspace', params: ReproduceStartParams, result: JobSummary },
  /** The finished reproductions, tables rebuilt from their runs on disk (main/reproduce/readback.ts). */
  'reproduce.results': { route: 'engine+workspace', params: empty, result: StoredReproductions },
  /** A stored reproduction's (an ablation's: the darcy-ablation preset) offline report, as runs.report: exports/report-<id>.html; id = its output folder's name. */
  'reproduce.report': { route: 'host', params: ReportParams, result: ReportResult },
} as const satisfies Record<string, MethodSpec>;
