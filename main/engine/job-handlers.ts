// The body of every job kind, in one table keyed by the contract's kinds (JOB_KINDS, main/api/jobs.ts,
// declares each kind's lane, parameters and whether it runs in the job worker): a kind without its
// body here does not compile. Each entry loads its module when asked, so the job worker
// (job-worker.ts) loads only its own kind's (a data job's worker loads no tfjs); the engine loads them
// all at start (engine.ts, registerJobs) and runs a worker kind's body through inJobWorker.
import type { JobKind, WorkerJobKind } from '../api/jobs';
import type { JobContext, JobDefinition } from './jobs';
import type { JobParams } from './job-params';
import type { TrainingJobs } from './train-jobs';

/** A kind's label and body, as the engine's queue runs it (JobDefinition). */
export interface JobBody<K extends JobKind> extends JobDefinition<JobParams[K]> {
  /**
   * A worker kind's first step in the engine thread, before its worker starts; what it returns is the
   * worker's parameters (the import's file listing: a listing worker started from the job's worker
   * took half as long again under the tests' TypeScript loader and missed its deadline).
   */
  prepare?: (p: JobParams[K], ctx: JobContext) => Promise<JobParams[K]>;
}

/** What a body that is not a worker's may use of the running engine (training runs in TrainingJobs). */
export interface EngineParts {
  training: TrainingJobs;
}

/** A worker kind's body loads without the engine (the job worker has none); the others may use it. */
export type LoadJobBody<K extends JobKind> = K extends WorkerJobKind ? () => Promise<JobBody<K>> : (engine: EngineParts) => Promise<JobBody<K>>;

export const JOB_HANDLERS: { [K in JobKind]: LoadJobBody<K> } = {
  selftest: async () => ({ label: (p) => `Engine self-test (${Number(p.steps ?? 20)} steps)`, run: (await import('./selftest-job')).runSelfTest }),
  generate: async () => {
    const m = await import('./dataset-jobs');
    return { label: m.generateLabel, run: m.runGenerate };
  },
  import: async () => {
    const m = await import('./dataset-jobs');
    return {
      label: m.importLabel,
      // the listing first (its own worker, as datasets.inspect), then the import in the data lane's worker
      prepare: async (p, ctx) => {
        const listed: Parameters<typeof m.runImport>[0] = { ...p, listing: await m.importListing(p, ctx) };
        return listed;
      },
      run: m.runImport,
    };
  },
  train: async (engine) => engine.training.trainJob,
  evaluate: async () => {
    const m = await import('./evaluate-job');
    return { label: m.evaluateLabel, run: m.runEvaluate };
  },
  export: async () => {
    const m = await import('./dataset-export-jobs');
    return { label: m.exportLabel, run: m.runDatasetExport };
  },
  'cluster-export': async () => {
    const m = await import('./cluster-export-job');
    return { label: m.clusterExportLabel, run: m.runClusterExport };
  },
  reproduce: async () => {
    const m = await import('./reproduce-job');
    return { label: m.reproduceLabel, run: m.runReproduce };
  },
  'lightmaps-correlation': async () => {
    const m = await import('./light-maps-correlation-job');
    return { label: m.lightMapsCorrelationLabel, run: m.runLightMapsCorrelation };
  },
  // the Playground's solver: in a solver worker of its own, so the engine keeps answering
  'playground-solve': async () => {
    const m = await import('./playground-solve-job');
    return { label: m.playgroundSolveLabel, run: m.runPlaygroundSolve };
  },
  cost: async () => {
    const m = await import('./cost-job');
    return { label: m.costLabel, run: m.runCost };
  },
  // torch's steps in a subprocess, the engine's on the worker's backend
  'torch-speed': async () => {
    const m = await import('./torch-speed-job');
    return { label: m.torchSpeedLabel, run: m.runTorchSpeed };
  },
};

/** A kind's body from the table: a worker kind's without the engine (the job worker has none). */
export function loadJobBody<K extends WorkerJobKind>(kind: K): Promise<JobBody<K>>;
export function loadJobBody<K extends JobKind>(kind: K, engine: EngineParts): Promise<JobBody<K>>;
export function loadJobBody<K extends JobKind>(kind: K, engine?: EngineParts): Promise<JobBody<K>> {
  // the table's type ties each kind to its loader; indexed by a generic kind, TypeScript sees only their union
  const load = JOB_HANDLERS[kind] as unknown as (e?: EngineParts) => Promise<JobBody<K>>;
  return load(engine);
}
