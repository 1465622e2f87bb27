// The job kinds that run in a worker thread of their own (job-worker.ts) rather than in the engine
// thread: tensor work that would otherwise stall engine.ping and every other call while it runs.
// A small table keyed by job kind, like job-lanes.ts.
import type { JobHandler } from './jobs';
import type { JobParams } from './job-params';
import { runEvaluate } from './evaluate-job';
import { runLightMapsCorrelation } from './light-maps-correlation-job';

export type WorkerJobKind = 'evaluate' | 'lightmaps-correlation';

export const WORKER_JOBS: { [K in WorkerJobKind]: JobHandler<JobParams[K]> } = {
  evaluate: runEvaluate,
  'lightmaps-correlation': runLightMapsCorrelation,
};

export const isWorkerJobKind = (kind: string): kind is WorkerJobKind => Object.hasOwn(WORKER_JOBS, kind);
