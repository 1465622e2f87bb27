// The engine's job kinds, declared once: each one's lane, which parameters jobs.start accepts for it or which call
// starts it instead, and whether it runs in the job worker. The engine registers exactly these kinds (main/engine/job-handlers.ts).
import { z } from 'zod';
import { BENCHMARKS, Benchmark } from '../data/data-spec';
import { FileRef } from './files';
import type { LaneId } from './job-lanes';

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

export const GenerateParams = z
  .object({
    benchmark: Benchmark,
    preset: z.enum(['tiny', 'quick', 'paper']),
    samples: z.number().int().min(2).max(1_000_000).optional(),
    resolution: z.number().int().min(8).max(65536).optional(),
    seed: z.number().int().min(0).optional(),
    /** Split sizes (samples); unset ones follow the one rule of main/data/stages/split.ts (test: 10 %, defaultTestCount). */
    train: z.number().int().min(1).optional(),
    val: z.number().int().min(0).optional(),
    test: z.number().int().min(0).optional(),
    /** The split's shuffle seed (default 42, the release's). */
    splitSeed: z.number().int().min(0).max(2 ** 31 - 1).optional(),
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

export const ImportParams = z
  .object({
    file: FileRef,
    benchmark: z.enum([...BENCHMARKS, 'custom']),
    input: z.array(z.string().min(1).max(256)).max(8),
    target: z.string().min(1).max(256),
    train: z.number().int().min(1).optional(),
    val: z.number().int().min(0).optional(),
    /** Test samples (default: 10 %, defaultTestCount in main/data/stages/split.ts) and the split's seed (default 42). */
    test: z.number().int().min(0).optional(),
    splitSeed: z.number().int().min(0).max(2 ** 31 - 1).optional(),
    resolution: z.number().int().min(2).max(65536).optional(),
    /** PDEBench layouts (main/data/stages/layout.ts): per-sample groups, MATLAB axis order, a time split. */
    layout: SourceLayout.optional(),
  })
  .strict();


/**
 * Every job kind the engine runs, declared once, and the only place a kind is named as such:
 * - `lane`: the lane it queues in (lanes run beside each other; main/engine/job-lanes.ts);
 * - `params`, what jobs.start accepts for it (checked like its own call's; the self-test clamps its
 *   own numbers in main/engine/selftest-job.ts), or `through`, the call that starts it instead (it
 *   names a run or a dataset the engine checks first);
 * - `worker`, set for work that would stall the engine thread: it runs in the job worker
 *   (main/engine/job-worker.ts), `'tensors'` with a tfjs backend, `'data'` without one (its worker
 *   starts in a fraction of the time).
 * The lane table, the worker kinds and each body's parameters (main/engine/job-params.ts) are derived
 * from here; the engine's one table of bodies (main/engine/job-handlers.ts) is keyed by these kinds,
 * so a kind without its body does not compile. test/unit/architecture/job-kinds.test.ts checks no
 * other file declares a kind.
 */
export const JOB_KINDS = {
  selftest: { lane: 'system', params: SelfTestParams.strict() },
  // splitting, normalizing and storing a dataset (synchronous writes with fsync, large arrays) held
  // the engine thread for 250 ms beside training (a CPU profile of test/integration/train/lanes.test.ts)
  generate: { lane: 'data', params: GenerateParams, worker: 'data' },
  import: { lane: 'data', params: ImportParams, worker: 'data' },
  train: { lane: 'training', through: 'train.start' },
  evaluate: { lane: 'evaluation', through: 'runs.evaluate', worker: 'tensors' },
  export: { lane: 'export', through: 'datasets.export' },
  'cluster-export': { lane: 'export', through: 'runs.exportForCluster' },
  // a reproduction trains its runs in the engine: it shares the training lane's slots
  reproduce: { lane: 'training', through: 'reproduce.start' },
  'lightmaps-correlation': { lane: 'analysis', through: 'runs.lightMapsCorrelation', worker: 'tensors' },
  // the Playground's truth: its own lane, so a solve never waits behind an evaluation or a generation
  // (its solver has a worker of its own: main/engine/playground-solve-job.ts)
  'playground-solve': { lane: 'playground-solve', through: 'playground.solve' },
  // timings: beside no other analysis job of this engine (the lane runs one at a time)
  cost: { lane: 'analysis', through: 'cost.benchmark', worker: 'tensors' },
  // a timing as well (torch's steps in a subprocess, the engine's on its backend in the worker),
  // with no other analysis job beside it
  'torch-speed': { lane: 'analysis', through: 'train.measureTorchSpeed', worker: 'tensors' },
} as const satisfies Record<string, JobKindDeclaration>;

/** One job kind's declaration (an entry of JOB_KINDS). */
export type JobKindDeclaration = { lane: LaneId; worker?: 'tensors' | 'data' } & ({ params: z.ZodType } | { through: string });

export const JobKind = z.enum(Object.keys(JOB_KINDS) as [keyof typeof JOB_KINDS, ...(keyof typeof JOB_KINDS)[]]);
export type JobKind = z.infer<typeof JobKind>;
type Declared = typeof JOB_KINDS;
/** A kind jobs.start accepts, with its parameters as checked (one member per kind declared with `params`). */
export type StartableJob = { [K in JobKind]: Declared[K] extends { params: infer S extends z.ZodType } ? { kind: K; params: z.output<S> } : never }[JobKind];

/**
 * jobs.start: the kind's parameters are checked like its own call's, so `workspace`, `path` or any
 * other field the host fills in is refused by name; the host adds the workspace and resolves `file`.
 */
export const JobStartParams = z
  .object({ kind: JobKind, params: z.record(z.string(), z.unknown()).default({}) })
  .strict()
  .transform((v, ctx) => {
    const spec: { params: z.ZodType } | { through: string } = JOB_KINDS[v.kind];
    if ('through' in spec) {
      ctx.addIssue({ code: 'custom', path: ['kind'], message: `'${v.kind}' jobs start through ${spec.through}` });
      return z.NEVER;
    }
    const r = spec.params.safeParse(v.params);
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
    // r.data is the output of JOB_KINDS[v.kind].params: the pair is that kind's member of StartableJob
    return { kind: v.kind, params: r.data } as StartableJob;
  });

/** Each kind's lane, from its declaration (a `Record<JobKind, LaneId>`: every kind has one). */
export const LANE_OF_KIND = Object.fromEntries(Object.entries(JOB_KINDS).map(([k, d]) => [k, d.lane])) as Record<JobKind, LaneId>;

/** The kinds declared with a `worker`: they run in the job worker (main/engine/job-worker.ts). */
export type WorkerJobKind = { [K in JobKind]: Declared[K] extends { worker: string } ? K : never }[JobKind];

/** Whether `kind` is one of the contract's kinds that runs in the job worker. */
export const isWorkerJobKind = (kind: string): kind is WorkerJobKind => Object.hasOwn(JOB_KINDS, kind) && 'worker' in JOB_KINDS[kind as JobKind];

/** Whether a worker kind runs tensors (its worker selects a tfjs backend first). */
export const workerRunsTensors = (kind: WorkerJobKind): boolean => JOB_KINDS[kind].worker === 'tensors';
