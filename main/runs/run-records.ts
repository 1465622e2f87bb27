// What the run store keeps and answers: run state, notes and tags, summaries, status, and the
// metrics.jsonl records. Zod schemas only (no I/O), re-exported for the renderer by main/api/contract.ts.
import { z } from 'zod';

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
  /** Test relL2 at the best validation epoch (normalized); null without a test split or before an epoch. */
  bestTestRelL2: z.number().nullable().optional(),
  /** Test samples of the data the run trained on (config resolvedData.counts.test); null when not recorded. */
  testSamples: z.number().nullable().optional(),
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
  /** The stored dataset the run's data resolved to (config resolvedData.id, or data.id), and the data's benchmark when its spec names one. */
  dataId: z.string().optional(),
  benchmark: z.string().optional(),
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
