// The WorkbenchApi contract: every call the renderer can make, with zod schemas for its
// parameters and result, and every event the engine side can push. Both hosts (Electron IPC
// and the localhost WebSocket) validate against these schemas before anything reaches a
// service, and the renderer's types come from here, so a renamed call is a compile error.
// Types and schemas only: no I/O, importable from the renderer.
import { z } from 'zod';
import { MODEL_KINDS, ModelConfig, RUN_MODEL_FIELDS, runModelDefaults } from '../model/kinds';
import { describeIssue } from './zod-issues';
import { errorMessage } from '../util/error-message';
import { ReproducePresetInfo, ReproduceStartParams } from './reproduce';

/** An opaque handle for a file the user chose (dialog or in-app browser); never a raw path from the renderer. */
export const FileRef = z.string().regex(/^f_[A-Za-z0-9_-]{8,64}$/, 'a file reference issued by the host');
export type FileRef = z.infer<typeof FileRef>;

/** Which TensorFlow.js backend the engine runs and why the ones before it were skipped (main/ops/backend.ts). */
export const BackendReport = z.object({
  active: z.string(),
  tfBackend: z.string(),
  attempts: z.array(z.object({ name: z.string(), ok: z.boolean(), reason: z.string() })),
  /** webgpu: the GPU adapter it runs on (fallback: a software one such as SwiftShader). */
  adapter: z.object({ vendor: z.string(), architecture: z.string(), device: z.string(), description: z.string(), fallback: z.boolean() }).optional(),
});
export type BackendReport = z.infer<typeof BackendReport>;

export const EngineInfo = z.object({
  version: z.string(),
  pid: z.number(),
  node: z.string(),
  tfjs: z.string(),
  backend: BackendReport,
  startedAt: z.string(),
  /** os.availableParallelism() of the engine's machine (the Training view's hint for `workers`). */
  cores: z.number().int().optional(),
});
export type EngineInfo = z.infer<typeof EngineInfo>;

export const JobKind = z.enum(['selftest', 'train', 'evaluate', 'generate', 'import']);
export type JobKind = z.infer<typeof JobKind>;

/**
 * Each self-test step spins `syncMs` without yielding, so the engine answers nothing (pings
 * included) meanwhile: capped so a call cannot make the engine look dead.
 */
export const SELFTEST_MAX_SYNC_MS = 2000;
export const SelfTestParams = z.object({
  steps: z.number().optional(),
  size: z.number().optional(),
  syncMs: z
    .number()
    .min(0, 'at least 0 ms')
    .max(SELFTEST_MAX_SYNC_MS, `at most ${SELFTEST_MAX_SYNC_MS} ms per step (the engine answers nothing, pings included, while a step spins)`)
    .optional(),
});

export const JobState = z.enum(['queued', 'running', 'done', 'failed', 'cancelled']);
export const JobSummary = z.object({
  id: z.string(),
  kind: z.string(),
  /** The lane it queues in (training, evaluation, analysis, data, export, system): lanes run beside each other. */
  lane: z.string().optional(),
  /** The order it was queued in (this engine's count): each lane runs its jobs in this order. */
  seq: z.number().int().optional(),
  state: JobState,
  label: z.string(),
  progress: z.number().min(0).max(1),
  etaSeconds: z.number().nullable(),
  message: z.string().optional(),
  error: z.string().optional(),
  result: z.unknown().optional(),
  startedAt: z.string().nullable(),
  endedAt: z.string().nullable(),
});
export type JobSummary = z.infer<typeof JobSummary>;

export const FileEntry = z.object({
  name: z.string(),
  kind: z.enum(['file', 'dir']),
  size: z.number(),
  modified: z.string(),
  ref: FileRef.optional(),
});
export type FileEntry = z.infer<typeof FileEntry>;

export const FileRoot = z.enum(['home', 'workspace']);

export const WorkspaceSummary = z.object({
  path: z.string(),
  datasets: z.array(z.object({ id: z.string(), name: z.string() })),
  runs: z.array(z.object({ id: z.string(), name: z.string(), status: z.string() })),
  exports: z.array(z.string()),
});
export type WorkspaceSummary = z.infer<typeof WorkspaceSummary>;

export const HostInfo = z.object({
  kind: z.enum(['electron', 'browser']),
  /** Native open/save dialogs (Electron) or the in-app file browser (browser mode). */
  nativeDialogs: z.boolean(),
  version: z.string(),
});
export type HostInfo = z.infer<typeof HostInfo>;

// ---- Training (main/train, main/runs) ----------------------------------------------------------

/** Pipeline options shared by the data specs that go through main/data/pipeline.ts. */
function pipelineFields() {
  return {
    /** Split sizes; default: the release's (scaled 80/20 when the source is smaller). Seed 42. */
    train: z.number().int().min(1).optional(),
    val: z.number().int().min(1).optional(),
    test: z.number().int().min(0).optional(),
    splitSeed: z.number().int().optional(),
    /** Training resolution (resize as the release does); default: the release's per benchmark. */
    resolution: z.union([z.number().int().min(2), z.array(z.number().int().min(2))]).optional(),
    /** Navier-Stokes: history and rollout lengths; normalizer 'separate' or 'shared' (default: the release's 'separate', DEFAULT_NS_NORMALIZER in main/data/pipeline.ts). */
    tIn: z.number().int().min(1).optional(),
    tOut: z.number().int().min(1).optional(),
    nsNormalizer: z.enum(['separate', 'shared']).optional(),
  };
}

const SyntheticData = z.object({
  kind: z.literal('synthetic'),
  task: z.enum(['operator', 'autoregressive']).default('operator'),
  grid: z.array(z.number().int().min(2).max(1024)).min(1).max(2),
  train: z.number().int().min(1),
  val: z.number().int().min(1),
  test: z.number().int().min(0).default(0),
  seed: z.number().int().default(0),
  /** autoregressive: history frames in, frames rolled out. */
  tIn: z.number().int().min(1).default(3),
  tOut: z.number().int().min(1).default(3),
}).strict();
/** The benchmarks the generators make (main/data/generate): the one list every layer uses. */
export const BENCHMARKS = ['darcy', 'burgers', 'navier-stokes', 'airfoil'] as const;
export const Benchmark = z.enum(BENCHMARKS);
export type Benchmark = z.infer<typeof Benchmark>;

/** A benchmark made by the generators (main/data/generate), prepared by the data pipeline. */
const GenerateData = z.object({
  kind: z.literal('generate'),
  benchmark: Benchmark,
  preset: z.enum(['tiny', 'quick', 'paper']).default('quick'),
  /** Generator overrides. */
  samples: z.number().int().min(2).optional(),
  generateResolution: z.number().int().min(2).optional(),
  frames: z.number().int().min(2).optional(),
  seed: z.number().int().min(0).optional(),
  ...pipelineFields(),
}).strict();
/** A prepared dataset stored in the workspace (datasets/<id>/, main/data/dataset-store.ts). */
const StoredData = z.object({ kind: z.literal('dataset'), id: z.string().min(1).max(200) }).strict();
/** A data file (.mat, .npy, .npz, .h5) or airfoil folder, prepared by the data pipeline. */
const FileData = z.object({
  kind: z.literal('file'),
  path: z.string().min(1).max(4096),
  benchmark: z.enum([...BENCHMARKS, 'custom']),
  input: z.array(z.string()).optional(),
  target: z.string().optional(),
  ...pipelineFields(),
}).strict();

/** Where a run's data comes from. 'synthetic' is a smooth analytic map for smoke tests, not a benchmark. */
export const DataSpec = z.discriminatedUnion('kind', [SyntheticData, GenerateData, StoredData, FileData]);
export type DataSpec = z.infer<typeof DataSpec>;

// Model kinds are declared once, in main/model/kinds.ts (light: zod only, no tfjs); the registry
// (main/model/registry.ts) registers exactly these. The renderer reads the kinds' field descriptors from here.
export { MODEL_KINDS, MODEL_KIND_DECLARATIONS, ModelConfig, builderConfig, modelKindDeclaration } from '../model/kinds';
export type { ModelKind, ModelKindDeclaration, ModelFieldDescriptor, ModelNumberField } from '../model/kinds';

/** A run's configuration (defaults = the paper's protocol); stored as runs/<id>/config.json. */
export const TrainConfig = z.object({
  name: z.string().max(200).optional(),
  /** Run group (several seeds of one configuration): runs with the same group are summarized together. */
  group: z.string().max(200).optional(),
  /** Set by the run store. */
  id: z.string().optional(),
  createdAt: z.string().optional(),
  /** Recorded on first start: the dataset's id, content hash, grid, split sizes and normalizer. */
  resolvedData: z.record(z.string(), z.unknown()).optional(),
  /** The model: `kind` names its registry entry (main/model/registry.ts); fields a kind does not use are ignored by it. */
  model: z.preprocess(runModelDefaults, z.object({
    kind: z.enum(MODEL_KINDS).default('lino'),
    width: z.number().int().min(1).max(4096).default(128),
    /** LiNO: blocks; FNO: Fourier layers (4 when omitted); DeepONet: layers of branch and of trunk. */
    depth: z.number().int().min(1).max(64).default(8),
    scattering: z.enum(['efficient', 'full', 'standard']).default('efficient'),
    components: z.array(z.enum(['reflection', 'refraction', 'scattering'])).min(1).default(['reflection', 'refraction', 'scattering']),
    /** Each kind's own fields (FNO's modes, DeepONet's basis), from its declaration. */
    ...RUN_MODEL_FIELDS,
  }).strict()).prefault({}),
  data: DataSpec,
  epochs: z.number().int().min(1).max(100_000).default(500),
  batchSize: z.number().int().min(1).max(4096).default(4),
  /** Samples per forward/backward; gradients accumulate to the whole batch. 'auto' = the largest that fits. */
  microBatch: z.union([z.number().int().min(1), z.literal('auto')]).default('auto'),
  /** Split, shuffling and initialization. */
  seed: z.number().int().default(42),
  optimizer: z.object({
    lr: z.number().positive().default(1e-3),
    weightDecay: z.number().min(0).default(1e-5),
    beta1: z.number().min(0).max(1).default(0.9),
    beta2: z.number().min(0).max(1).default(0.999),
    eps: z.number().positive().default(1e-8),
  }).strict().prefault({}),
  /** Global-norm gradient clipping; 0 turns it off. */
  clipNorm: z.number().min(0).default(1.0),
  schedule: z.object({ stepSize: z.number().int().min(1).default(5), gamma: z.number().positive().default(0.96) }).strict().prefault({}),
  /** Autoregressive runs: recompute each rollout step's forward during backward (bounded memory). */
  rollout: z.object({ checkpointing: z.boolean().default(true) }).strict().prefault({}),
  /** LiNO: recompute each block during backward so a step holds one block's intermediates; 'auto' = only when the step would not fit otherwise. */
  checkpointBlocks: z.union([z.boolean(), z.literal('auto')]).default('auto'),
  /** Force a backend (tensorflow-gpu, webgpu, tensorflow, wasm, cpu); default: the engine's choice. */
  backend: z.string().optional(),
  /**
   * Data-parallel threads per step (wasm/cpu backends: each thread its own backend); the batch is
   * split between them, the gradients summed: the same maths as 1. 'auto' = the machine's cores (max 8).
   */
  workers: z.union([z.number().int().min(1).max(8), z.literal('auto')]).default(1),
}).strict();
export type TrainConfig = z.infer<typeof TrainConfig>;
export type TrainConfigInput = z.input<typeof TrainConfig>;

/**
 * A run configuration as a client sends it (train.start). A data file is a file reference
 * (`data.file`) the host resolves to the stored `data.path`; a `data.path` is accepted only when the
 * host chose it before (the data file of a run in the open workspace: a copied configuration).
 */
export const ApiTrainConfig = TrainConfig.extend({
  data: z.discriminatedUnion('kind', [
    SyntheticData,
    GenerateData,
    StoredData,
    FileData.extend({ path: FileData.shape.path.optional(), file: FileRef.optional() }).refine((d) => (d.file === undefined) !== (d.path === undefined), {
      path: ['file'],
      message: 'a file reference from the file browser or a dialog (or, in a copied configuration, the data.path of a run in this workspace), not both',
    }),
  ]),
});

/** train.calibrate: a configuration's measured step time and the run's time at that speed. */
export const Calibration = z.object({
  backend: z.string(),
  msPerStep: z.number(),
  steps: z.number(),
  warmupMs: z.number(),
  stepsPerEpoch: z.number(),
  secondsPerEpoch: z.number(),
  totalSeconds: z.number(),
  epochs: z.number(),
  grid: z.array(z.number()),
  train: z.number(),
  val: z.number(),
  microBatch: z.number(),
  note: z.string(),
});
export type Calibration = z.infer<typeof Calibration>;

export const RunState = z.enum(['queued', 'running', 'paused', 'done', 'failed', 'stopped', 'interrupted']);
export type RunState = z.infer<typeof RunState>;
/** A run tag: short, letters, digits and . _ + - (no spaces, so "tag:a tag:b" filters stay unambiguous). */
export const RunTag = z.string().min(1).max(32).regex(/^[A-Za-z0-9][A-Za-z0-9._+-]*$/, 'a tag of at most 32 letters, digits, ".", "_", "+" or "-", starting with a letter or digit');
export const RUN_NOTES_MAX = 4000;
export const RUN_TAGS_MAX = 16;
/** runs/<id>/meta.json: the user's notes and tags for a run (never read by training). */
export const RunMeta = z.object({
  notes: z.string().max(RUN_NOTES_MAX, `notes of at most ${RUN_NOTES_MAX} characters`)
    .refine((s) => !/[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/.test(s), 'notes without control characters (newlines and tabs are fine)')
    .default(''),
  tags: z.array(RunTag).max(RUN_TAGS_MAX, `at most ${RUN_TAGS_MAX} tags`).default([]),
}).strict();
export type RunMeta = z.infer<typeof RunMeta>;
/** A run id as the run store makes them: no path separators, no leading dot. */
export const RunId = z.string().max(128).regex(/^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$/, 'a run id (letters, digits, ".", "_", "-")');

/** A 'cluster-export' job's result (runs.exportForCluster). */
export const ClusterExportResult = z.object({
  runId: z.string(),
  /** The folder's name under exports/. */
  folder: z.string(),
  /** Its absolute path on the host. */
  path: z.string(),
  /** The run folder the cluster job writes, relative to the export. */
  runDir: z.string(),
  /** The one-machine torchrun command, run inside the export. */
  command: z.string(),
  /** Files written, relative to exports/. */
  files: z.array(z.string()),
});
export type ClusterExportResult = z.infer<typeof ClusterExportResult>;

export const RunSummary = z.object({
  id: z.string(),
  name: z.string(),
  state: RunState,
  createdAt: z.string(),
  reason: z.string().optional(),
  epochsDone: z.number(),
  epochs: z.number().nullable(),
  bestValRelL2: z.number().nullable(),
  bestEpoch: z.number().nullable(),
  backend: z.string().nullable(),
  group: z.string().nullable(),
  seed: z.number().nullable(),
  /** When status.json last changed (start, epoch, pause, end): with createdAt, the run's wall time. */
  updatedAt: z.string().optional(),
  /** The run's name without the ' (seed N)' suffix a seed group adds: what an ablation's groups are named after ('darcy-a/full'). */
  baseName: z.string().optional(),
  /** Trainable parameters (counted from the stored weights); null before the first checkpoint. */
  params: z.number().nullable().optional(),
  /** The model's registry kind ('lino', 'fno', 'deeponet'): views show it and offer kind-specific panels (gates, light maps) by it. */
  modelKind: z.string().optional(),
  /** Queued (created) and first started; queueSeconds is the wait between them. */
  queuedAt: z.string().nullable().optional(),
  startedAt: z.string().nullable().optional(),
  queueSeconds: z.number().nullable().optional(),
  /** Seconds in the running state (no queue, no pause), up to the last status write. */
  trainSeconds: z.number().nullable().optional(),
  /** From runs/<id>/meta.json (runs.annotate). */
  notes: z.string().optional(),
  tags: z.array(z.string()).optional(),
});
export type RunSummary = z.infer<typeof RunSummary>;

export const RunStatus = z.object({
  state: RunState,
  pid: z.number().nullable(),
  /** The machine that trained it (a run trained on a cluster keeps its stored state here). */
  host: z.string().optional(),
  updatedAt: z.string(),
  reason: z.string().optional(),
  epoch: z.number().optional(),
  step: z.number().optional(),
  backend: z.string().optional(),
  queuedAt: z.string().optional(),
  startedAt: z.string().optional(),
  trainSeconds: z.number().optional(),
  runningSince: z.string().optional(),
});

/** One optimizer step (metrics.jsonl type 'step'). */
export const StepMetrics = z.object({
  type: z.literal('step'),
  epoch: z.number(),
  step: z.number(),
  loss: z.number(),
  relL2: z.number(),
  lr: z.number(),
  gradNorm: z.number(),
  stepMs: z.number(),
});
export type StepMetrics = z.infer<typeof StepMetrics>;

export const SplitMetrics = z.object({
  mse: z.number(),
  relL2: z.number(),
  relL2Decoded: z.number(),
  steps: z.object({ mean: z.array(z.number()), std: z.array(z.number()) }).optional(),
  stepMeanRelL2: z.number().optional(),
  /** Autoregressive: relL2 of all rolled-out frames at once (the release's "full rollout"); relL2 itself is the mean over steps. */
  rolloutRelL2: z.number().optional(),
  rolloutRelL2Decoded: z.number().optional(),
});

/** One epoch (metrics.jsonl type 'epoch'): train/val(/test) metrics, gate statistics, block scalars, throughput. */
export const EpochMetrics = z.object({
  type: z.literal('epoch'),
  epoch: z.number(),
  lr: z.number(),
  train: z.object({ loss: z.number(), relL2: z.number() }),
  /** What train.relL2 and val.relL2 mean (the same for both): a label for the plots. */
  relL2Definition: z.string().optional(),
  val: SplitMetrics,
  test: SplitMetrics.optional(),
  blocks: z.array(z.object({
    components: z.array(z.string()),
    alphaMean: z.array(z.number()),
    alphaStd: z.array(z.number()),
    scalars: z.record(z.string(), z.number()),
  })),
  best: z.boolean(),
  bestEpoch: z.number(),
  bestValRelL2: z.number(),
  bestTestRelL2: z.number().optional(),
  bestTestRelL2Decoded: z.number().optional(),
  samplesPerSec: z.number(),
  epochSeconds: z.number(),
  etaSeconds: z.number(),
  peakRssBytes: z.number(),
  tfBytes: z.number(),
  backend: z.string(),
});
export type EpochMetrics = z.infer<typeof EpochMetrics>;

export const MetricsRecord = z.union([StepMetrics, EpochMetrics]);

/** runs.lightMaps: one sample's light maps, per block, flattened row-major over `grid`. */
const LightMapBranch = z.enum(['reflection', 'refraction', 'scattering']);
export const LightMapsResult = z.object({
  runId: z.string(),
  checkpoint: z.enum(['best', 'last']),
  split: z.enum(['train', 'val', 'test']),
  sample: z.number(),
  /** Samples in the split. */
  samples: z.number(),
  grid: z.array(z.number()),
  benchmark: z.string(),
  /** The model's input channels as it sees them (normalized), coordinates left out. */
  input: z.array(z.array(z.number())),
  /** Curvilinear-mesh data (airfoil): the sample's node coordinates as stored, row-major over `grid`. */
  mesh: z.object({ x: z.array(z.number()), y: z.array(z.number()) }).optional(),
  query: z.array(z.number()).optional(),
  blocks: z.array(z.object({
    /** The block's enabled branches; `gates` and `dominant` index into it. */
    components: z.array(LightMapBranch),
    gates: z.array(z.number()),
    reflectionActivity: z.array(z.number()).optional(),
    refractionActivity: z.array(z.number()).optional(),
    contribution: z.partialRecord(LightMapBranch, z.array(z.number())),
    dominant: z.array(z.number()),
    latentNorm: z.array(z.number()),
    /** The query point's global scattering kernel row; efficient scattering marks its local neighbourhood with beta. */
    kernel: z.object({ row: z.array(z.number()), local: z.object({ indices: z.array(z.number()), beta: z.number() }).optional() }).optional(),
  })),
});
export type LightMapsResult = z.infer<typeof LightMapsResult>;

/** A 'lightmaps-correlation' job's result (runs.lightMapsCorrelation): the table of `lino lightmaps --correlate`. */
export const LIGHT_MAP_CORRELATED = ['reflectionActivity', 'refractionActivity', 'reflection', 'refraction', 'scattering'] as const;
export const LightMapsCorrelationResult = z.object({
  runId: z.string(),
  checkpoint: z.enum(['best', 'last']),
  split: z.enum(['train', 'val', 'test']),
  /** Samples correlated. */
  samples: z.number(),
  /** Per block, the maps it has (a switched-off branch has none); r is null where undefined (a constant map). */
  blocks: z.array(z.object({
    block: z.number(),
    maps: z.array(z.object({
      map: z.enum(LIGHT_MAP_CORRELATED),
      /** r over every point of every sample. */
      pooled: z.number().nullable(),
      /** Mean and std (population) of each sample's own r. */
      mean: z.number().nullable(),
      std: z.number().nullable(),
      /** Samples whose own r is defined. */
      n: z.number(),
    })),
  })),
});
export type LightMapsCorrelationResult = z.infer<typeof LightMapsCorrelationResult>;

export const EvaluationResult = z.object({
  runId: z.string(),
  checkpoint: z.enum(['best', 'last']),
  epoch: z.number(),
  split: z.enum(['train', 'val', 'test']),
  resolutions: z.array(z.object({
    grid: z.array(z.number()),
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
     */
    fields: z.array(z.object({
      /** 'index': a sample asked for by `indices`. */
      which: z.enum(['best', 'median', 'worst', 'index']),
      index: z.number(),
      relL2: z.number(),
      relL2Decoded: z.number(),
      /** Input channels (coordinates left out); autoregressive: the T_in history frames. */
      input: z.array(z.array(z.number())),
      /** Target channels; autoregressive: one entry per rollout step. */
      reference: z.array(z.array(z.number())),
      prediction: z.array(z.array(z.number())),
      /** Autoregressive: this trajectory's relL2 (decoded) at each rollout step. */
      stepRelL2: z.array(z.number()).optional(),
    })).optional(),
  })),
});
export type EvaluationResult = z.infer<typeof EvaluationResult>;

const empty = z.object({}).strict();

/** A name for a file in the workspace's exports/ folder: no path separators, no leading dot. */
export const ExportName = z
  .string()
  .min(1)
  .max(200)
  .refine((s) => !/[\\/\0]/.test(s), 'a file name without path separators')
  .refine((s) => s !== '.' && s !== '..' && !s.startsWith('.'), 'a file name that does not start with a dot');

/** Largest export accepted (decoded bytes); the base64 text is 4/3 of it. */
export const EXPORT_MAX_BYTES = 32 * 1024 * 1024;

export const DatasetSample = z.object({
  id: z.string(),
  benchmark: z.string(),
  split: z.enum(['train', 'val', 'test']),
  index: z.number(),
  /** Rows in this split, and in each split. */
  count: z.number(),
  counts: z.object({ train: z.number(), val: z.number(), test: z.number() }),
  grid: z.array(z.number()),
  /** Physical (de-normalized) input and target channels; coordinate channels are left out. */
  x: z.array(z.object({ name: z.string(), values: z.array(z.number()) })),
  y: z.array(z.object({ name: z.string(), values: z.array(z.number()) })),
  /** Source sample this row comes from. */
  sourceIndex: z.number(),
  warnings: z.array(z.string()),
  /** Dataset statistics (physical units, training split) behind the normalizer. */
  stats: z.object({
    x: z.object({ mean: z.number(), std: z.number(), min: z.number(), max: z.number() }),
    y: z.object({ mean: z.number(), std: z.number(), min: z.number(), max: z.number() }),
    normalized: z.boolean(),
  }),
});
export type DatasetSample = z.infer<typeof DatasetSample>;

export const ModelEstimate = z.object({
  params: z.number(),
  forwardFlops: z.number(),
  trainStepFlops: z.number(),
  paramStateBytes: z.number(),
  activationBytes: z.number(),
  peakBytes: z.number(),
  /** The wasm backend's address space (4 GiB): a step needing more cannot run there. */
  wasmLimitBytes: z.number(),
  exceedsWasm: z.boolean(),
  /** What the numbers come from: the model's estimate code, or a real model instance. */
  source: z.string(),
  /** Channels the model actually sees (data channels + coordinates when on). */
  inChannels: z.number(),
  /** Peak memory and FLOPs of one step for square grids of other sizes, same batch. */
  sweep: z.array(z.object({ side: z.number(), peakBytes: z.number(), trainStepFlops: z.number() })),
});
export type ModelEstimate = z.infer<typeof ModelEstimate>;

/** Workbench UI state (open view, selections, theme): one JSON object per workspace. */
export const UI_STATE_MAX_BYTES = 64 * 1024;
export const UiState = z
  .record(z.string().max(100), z.unknown())
  .refine((v) => JSON.stringify(v).length <= UI_STATE_MAX_BYTES, `UI state of at most ${UI_STATE_MAX_BYTES / 1024} KiB of JSON`);
export type UiState = z.infer<typeof UiState>;

/** A file in exports/: a plain name, or `folder/name` one level down (dataset exports write a folder). */
export const ExportPath = z
  .string()
  .min(1)
  .max(401)
  .refine((s) => s.split('/').length <= 2 && s.split('/').every((p) => ExportName.safeParse(p).success), 'a file name in exports/ (or folder/name), no other path separators, no leading dots');

export const ExportEntry = z.object({ name: z.string(), size: z.number(), modified: z.string() });
export type ExportEntry = z.infer<typeof ExportEntry>;

/** null: the split has no rows. */
const ChannelStats = z.object({ name: z.string(), min: z.number().nullable(), max: z.number().nullable(), mean: z.number().nullable(), std: z.number().nullable() });
export const DatasetStats = z.object({
  id: z.string(),
  split: z.enum(['train', 'val', 'test']),
  count: z.number(),
  grid: z.array(z.number()),
  /** Physical (decoded) per-channel statistics over every point of every row of the split; coordinates left out. */
  x: z.array(ChannelStats),
  y: z.array(ChannelStats),
});
export type DatasetStats = z.infer<typeof DatasetStats>;

const DatasetId = z.string().max(128).regex(/^[A-Za-z0-9][A-Za-z0-9._-]*$/, 'a dataset id');

const GenerateParams = z
  .object({
    benchmark: Benchmark,
    preset: z.enum(['tiny', 'quick', 'paper']),
    samples: z.number().int().min(2).max(1_000_000).optional(),
    resolution: z.number().int().min(8).max(65536).optional(),
    seed: z.number().int().min(0).optional(),
    /** Split sizes (samples); unset ones follow the one rule of main/data/stages/split.ts (test: none). */
    train: z.number().int().min(1).optional(),
    val: z.number().int().min(0).optional(),
    test: z.number().int().min(0).optional(),
  })
  .strict()
  .superRefine((v, ctx) => {
    const asked = (v.train ?? 0) + (v.val ?? 0) + (v.test ?? 0);
    if (v.samples !== undefined && asked > v.samples) {
      ctx.addIssue({ code: 'custom', path: ['train'], message: `train + val + test (${asked}) must be at most samples (${v.samples})` });
    }
  });

const TimeIndex = z.number().int().min(0).max(1_000_000);
const SourceLayout = z
  .object({
    axisOrder: z.enum(['stored', 'reversed']).optional(),
    groups: z.boolean().optional(),
    targets: z.array(z.string().min(1).max(256)).max(8).optional(),
    time: z
      .discriminatedUnion('mode', [
        z.object({ axis: z.number().int().min(1).max(8), mode: z.literal('operator'), t0: TimeIndex, t1: TimeIndex }).strict(),
        z.object({ axis: z.number().int().min(1).max(8), mode: z.literal('autoregressive'), tIn: z.number().int().min(1).max(1000), tOut: z.number().int().min(1).max(1000) }).strict(),
      ])
      .optional(),
  })
  .strict();

const ImportParams = z
  .object({
    file: FileRef,
    benchmark: z.enum([...BENCHMARKS, 'custom']),
    input: z.array(z.string().min(1).max(256)).max(8),
    target: z.string().min(1).max(256),
    train: z.number().int().min(1).optional(),
    val: z.number().int().min(0).optional(),
    resolution: z.number().int().min(2).max(65536).optional(),
    /** PDEBench layouts (main/data/stages/layout.ts): per-sample groups, MATLAB axis order, a time split. */
    layout: SourceLayout.optional(),
  })
  .strict();

/**
 * What jobs.start accepts per kind; train and evaluate jobs start through train.start and runs.evaluate.
 * The self-test clamps its own numbers (main/engine/selftest-job.ts); only its fields are checked here.
 */
const JOB_PARAMS: Partial<Record<JobKind, z.ZodType>> = { selftest: SelfTestParams.strict(), generate: GenerateParams, import: ImportParams };

/**
 * jobs.start: the kind's parameters are checked like its own call's, so `workspace`, `path` or any
 * other field the host fills in is refused by name; the host adds the workspace and resolves `file`.
 */
const JobStartParams = z
  .object({ kind: JobKind, params: z.record(z.string(), z.unknown()).default({}) })
  .strict()
  .transform((v, ctx) => {
    const schema = JOB_PARAMS[v.kind];
    if (!schema) {
      ctx.addIssue({ code: 'custom', path: ['kind'], message: `'${v.kind}' jobs start through ${v.kind === 'train' ? 'train.start' : 'runs.evaluate'}` });
      return z.NEVER;
    }
    const r = schema.safeParse(v.params);
    if (!r.success) {
      // A field the host fills in (workspace, path) is named first: it is the reason for the refusal.
      const issues = [...r.error.issues].sort((a, b) => Number(b.code === 'unrecognized_keys') - Number(a.code === 'unrecognized_keys'));
      for (const i of issues) {
        const keys = i.code === 'unrecognized_keys' ? i.keys : [];
        if (keys.length) for (const k of keys) ctx.addIssue({ code: 'custom', path: ['params', ...i.path, k], message: `not a parameter of '${v.kind}' jobs (paths and the workspace are chosen by the host)` });
        else ctx.addIssue({ code: 'custom', path: ['params', ...i.path], message: i.message });
      }
      return z.NEVER;
    }
    return { kind: v.kind, params: r.data as Record<string, unknown> };
  });

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
  'exports.read': {
    route: 'host',
    params: z.object({ name: ExportPath }).strict(),
    result: z.object({ name: z.string(), mime: z.string(), size: z.number(), data: z.string() }),
  },
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
  'train.pause': { route: 'engine+workspace', params: z.object({ id: z.string().max(128) }).strict(), result: z.object({ ok: z.boolean() }) },
  /** Continue a paused run, or queue an interrupted/stopped run to resume from its last checkpoint. */
  'train.resume': { route: 'engine+workspace', params: z.object({ id: z.string().max(128) }).strict(), result: z.object({ ok: z.boolean(), job: JobSummary.optional() }) },
  'train.stop': { route: 'engine+workspace', params: z.object({ id: z.string().max(128) }).strict(), result: z.object({ ok: z.boolean() }) },
  // ---- Reproductions of the paper's tables and figures (main/reproduce, types in ./reproduce.ts) ----
  /** The presets with their sizes and estimated times. */
  'reproduce.list': { route: 'engine', params: empty, result: z.array(ReproducePresetInfo) },
  /** Run one as a 'reproduce' job (progress, ETA, cancel); its result is a ReproduceResult (tables with the reported rows apart, files). */
  'reproduce.start': { route: 'engine+workspace', params: ReproduceStartParams, result: JobSummary },
} as const satisfies Record<string, MethodSpec>;

export type MethodName = keyof typeof methods;
export type Params<M extends MethodName> = z.input<(typeof methods)[M]['params']>;
export type Result<M extends MethodName> = z.output<(typeof methods)[M]['result']>;
/** A call's parameters as parseParams answers them (defaults filled in). */
export type ParsedParams<M extends MethodName> = z.output<(typeof methods)[M]['params']>;
/** The calls the host process answers itself, and those it forwards to the engine (see Route). */
export type HostMethod = { [M in MethodName]: (typeof methods)[M]['route'] extends 'host' ? M : never }[MethodName];
export type EngineMethod = Exclude<MethodName, HostMethod>;

/** Events pushed to every connected view. */
export const WorkbenchEvent = z.discriminatedUnion('type', [
  z.object({ type: z.literal('job'), job: JobSummary }),
  z.object({ type: z.literal('engine'), state: z.enum(['starting', 'ready', 'crashed', 'restarting']), detail: z.string().optional(), pid: z.number().optional() }),
  z.object({ type: z.literal('log'), level: z.enum(['info', 'warn', 'error']), message: z.string() }),
  /**
   * Live training metrics. 'steps' carries every step since the previous message (sent at most
   * 20 times a second, nothing dropped); 'epoch' one epoch's record; metrics.jsonl has them all.
   */
  /** etaSeconds: the run's time left from its recent step rate (from its 3rd step on; null before). */
  z.object({ type: z.literal('metrics'), runId: z.string(), steps: z.array(StepMetrics), epoch: EpochMetrics.optional(), etaSeconds: z.number().nullable().optional() }),
  /** A run changed state (queued, running, paused, done, failed, stopped). */
  z.object({ type: z.literal('run'), runId: z.string(), state: RunState, reason: z.string().optional(), epoch: z.number().optional(), step: z.number().optional() }),
]);
export type WorkbenchEvent = z.infer<typeof WorkbenchEvent>;

/** The one API the renderer talks to; implemented by the Electron preload bridge and the WebSocket client. */
export interface WorkbenchApi {
  call<M extends MethodName>(method: M, params: Params<M>): Promise<Result<M>>;
  onEvent(listener: (event: WorkbenchEvent) => void): () => void;
}

/** An error as it crosses a process or network boundary. */
export interface ApiErrorShape {
  message: string;
  code: 'invalid_params' | 'unknown_method' | 'engine_crashed' | 'not_found' | 'forbidden' | 'failed' | 'cancelled';
  /** What caused it, for showing the message next to it (a file, a field). */
  field?: string;
  file?: string;
}

export class ApiError extends Error {
  constructor(
    message: string,
    readonly code: ApiErrorShape['code'] = 'failed',
    readonly details: { field?: string; file?: string } = {},
  ) {
    super(message);
    this.name = 'ApiError';
  }
  toJSON(): ApiErrorShape {
    return { message: this.message, code: this.code, ...this.details };
  }
  static from(e: unknown): ApiError {
    if (e instanceof ApiError) return e;
    if (e && typeof e === 'object' && 'message' in e && 'code' in e) {
      const s = e as ApiErrorShape;
      return new ApiError(s.message, s.code, { field: s.field, file: s.file });
    }
    return new ApiError(errorMessage(e));
  }
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

/** Wire format for request/response transports (WebSocket). */
export const WireRequest = z.object({ id: z.number().int(), method: z.string().max(100), params: z.unknown() });
export type WireMessage =
  | { kind: 'response'; id: number; ok: true; result: unknown }
  | { kind: 'response'; id: number; ok: false; error: ApiErrorShape }
  | { kind: 'event'; event: WorkbenchEvent };
