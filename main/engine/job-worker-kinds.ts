// The job kinds that run in a worker thread of their own (job-worker.ts) rather than in the engine
// thread: work that would otherwise stall engine.ping and every other call while it runs. A small
// table keyed by job kind, like job-lanes.ts. Each kind's module is loaded by the worker that runs
// it, and only the kinds that run tensors select a backend: a data job's worker starts in a fraction
// of the time (and its nested workers, such as a file listing's, keep their deadline on a busy machine).
import type { JobHandler } from './jobs';
import type { JobParams } from './job-params';

export type WorkerJobKind = 'evaluate' | 'lightmaps-correlation' | 'generate' | 'import' | 'cost' | 'torch-speed';

export interface WorkerJob<K extends WorkerJobKind> {
  load: () => Promise<JobHandler<JobParams[K]>>;
  /** Whether the job runs tensors (the worker selects a tfjs backend first). */
  backend: boolean;
}

export const WORKER_JOBS: { [K in WorkerJobKind]: WorkerJob<K> } = {
  evaluate: { backend: true, load: async () => (await import('./evaluate-job')).runEvaluate },
  'lightmaps-correlation': { backend: true, load: async () => (await import('./light-maps-correlation-job')).runLightMapsCorrelation },
  cost: { backend: true, load: async () => (await import('./cost-job')).runCost },
  // the engine's side of the comparison times training steps on the engine's backend
  'torch-speed': { backend: true, load: async () => (await import('./torch-speed-job')).runTorchSpeed },
  // splitting, normalizing and storing a dataset (synchronous writes with fsync, large arrays) held
  // the engine thread for 250 ms beside training (a CPU profile of test/integration/train/lanes.test.ts)
  generate: { backend: false, load: async () => (await import('./dataset-jobs')).runGenerate },
  import: { backend: false, load: async () => (await import('./dataset-jobs')).runImport },
};

export const isWorkerJobKind = (kind: string): kind is WorkerJobKind => Object.hasOwn(WORKER_JOBS, kind);
