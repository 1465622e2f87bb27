// The engine: answers calls from a host over a ParentChannel. All tensor work happens here,
// in its own process, never in a UI thread.
import { ApiError } from '../api/api-error';
import type { EngineMethod, EngineParams, JobSummary, Result } from '../api/contract';
import { isWorkerJobKind, JobKind } from '../api/jobs';
import { DataError } from '../data/formats/errors';
import type { ParentChannel, ToEngine } from '../api/engine-protocol';
import { JobQueue } from './jobs';
import { loadJobBody, type EngineParts, type JobBody } from './job-handlers';
import type { JobParams, StartedJob } from './job-params';
import { inJobWorker } from './job-worker-run';
import { defaultTrainingSlots, LANE_ORDER } from './job-lanes';
import { initBackend, tf } from './tf-runtime';
import { modelEstimate } from './model-estimate';
import { datasetInspect, datasetPresets, datasetSample } from './dataset-call';
import { TrainingJobs } from './train-jobs';
import { SweepJobs } from './sweep-jobs';
import { datasetStore } from './dataset-export-jobs';
import { datasetStatsCall } from './dataset-stats-call';
import { RunStore } from '../runs/run-store';
import { importCheckpointCall } from './import-checkpoint-call';
import { join } from 'node:path';
import { lightMapsCall } from './light-maps-call';
import { checkCostRuns } from './cost-job';
import { startTorchSpeed, torchSpeedCall } from './torch-speed-job';
import { checkCorrelationRun } from './light-maps-correlation-job';
import { refuseRepeat, reproduceList, reproduceResults } from './reproduce-job';
import { VERSION } from '../version';
import { LANE_TEXT_HANDLERS, playgroundLaneCall } from './playground-lane';
import { playgroundDrawCall, playgroundPredictCall, playgroundSaveCall, playgroundSolveCall } from './playground-call';
import type { playgroundTrustCall } from './playground-trust-call';
import { playgroundAppendCall, playgroundAppendableCall, playgroundExportCall, playgroundSampleCall } from './playground-keep-call';
import { availableParallelism } from 'node:os';
import { cachedTorchProbe, pythonCommand } from '../train/torch-probe';
import { readSettings } from '../workspace/settings';
import type { TorchReport } from '../train/torch-report';
import { JsonText, jobEventMessage, withParsedResult } from './json-text';
import { errorMessage } from '../util/error-message';

/**
 * One handler per call the contract routes to the engine, typed from its entry (params as the host
 * forwards them, the call's result), plus the host calls whose host handler does its own part first,
 * then asks the engine (WorkbenchService's cancelJob, startTraining) with these parameters.
 */
type EngineHandlers = { [M in EngineMethod]: (params: EngineParams<M>) => Result<M> | Promise<Result<M>> } & {
  'jobs.cancel': (params: { id: string }) => Result<'jobs.cancel'>;
  /** The host created the run (runs/<runId>) and forwards train.start with its id. */
  'train.start': (params: { workspace: string; runId: string }) => Promise<{ runId: string; job: JobSummary }>;
  /** The host, when an engine starts or a workspace opens: follow the PyTorch runs an earlier engine started (TrainingJobs.adopt). */
  'train.adopt': (params: { workspace: string }) => Promise<{ following: string[]; ended: string[] }>;
};

/** Whether every jobs.start kind's checked parameters, with the workspace, are its JobParams (true, or this does not compile). */
type StartsWithItsParams = { [K in StartedJob['kind']]: (StartedJob & { kind: K })['params'] & { workspace: string } extends JobParams[K] ? true : false }[StartedJob['kind']];
const startsWithItsParams: StartsWithItsParams = true;
void startsWithItsParams;

/** jobs.start of a kind declared with its parameters: each kind with its own, plus the workspace. */
function startDeclared<K extends StartedJob['kind']>(jobs: JobQueue, p: StartedJob & { kind: K }): JobSummary {
  // each member of StartedJob pairs a kind with its checked parameters (the host resolved `file` to
  // `path`): with the workspace they are that kind's JobParams, which TypeScript cannot follow through the union
  // (StartsWithItsParams checks each)
  const params = { ...p.params, workspace: p.workspace } as unknown as JobParams[K];
  return jobs.start(p.kind, params);
}

/** engine.info waits this long for the PyTorch probe (it imports torch once); train.torch waits for it. */
async function torchWithin(ms: number): Promise<{ torch?: TorchReport }> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<null>((r) => { timer = setTimeout(() => r(null), ms); });
  const r = await Promise.race([cachedTorchProbe(pythonCommand(readSettings().python)), late]);
  clearTimeout(timer);
  return r ? { torch: r } : {};
}

/**
 * Registers every job kind of the contract with its body from JOB_HANDLERS (a kind declared with a
 * `worker` runs there through inJobWorker).
 */
async function registerJobs(jobs: JobQueue, engine: EngineParts): Promise<void> {
  const register = async <K extends JobKind>(kind: K) => {
    const body = await loadJobBody(kind, engine);
    // narrowed, the kind is K & WorkerJobKind: its body is the same one
    if (isWorkerJobKind(kind)) jobs.register(kind, inJobWorker(kind, body as unknown as JobBody<typeof kind>));
    else jobs.register(kind, body);
  };
  await Promise.all(JobKind.options.map(register));
}

/** The engine's handler of every call routed to it, over its job queue, training and sweeps. */
function engineHandlers(jobs: JobQueue, training: TrainingJobs, sweepJobs: SweepJobs, startedAt: string): EngineHandlers {
  // Every call the contract routes to the engine (route 'engine' or 'engine+workspace'), and only those
  // (plus ForwardedByHost): a missing or an extra handler is a compile error. The host has already resolved
  // file references to `path` and, for 'engine+workspace' calls, added its open workspace folder as `workspace`.
  const handlers: EngineHandlers = {
    'engine.info': async () => ({
      version: VERSION,
      pid: process.pid,
      node: process.version,
      tfjs: tf.version_core,
      backend: await initBackend(),
      startedAt,
      cores: availableParallelism(),
      ...(await torchWithin(5000)),
    }),
    'engine.ping': (p) => ({ t: p.t, engineTime: Date.now() }),
    // Kinds that name a run or a dataset are refused by the contract (JOB_KINDS' `through`): they start
    // through their own call, which checks what they name first.
    'jobs.start': async (p) => {
      await initBackend();
      return startDeclared(jobs, p);
    },
    'jobs.cancel': (p) => ({ ok: training.cancelJob(p.id) ?? jobs.cancel(p.id) }),
    'jobs.list': () => jobs.list().map(withParsedResult),
    'jobs.lanes': (p: { trainingSlots?: number }) => {
      if (p.trainingSlots !== undefined && training.inThread && p.trainingSlots > 1) {
        throw new ApiError('jobs.lanes: trainingSlots: this engine trains in its own thread (LINO_TRAIN_IN_THREAD=1), so one run at a time', 'invalid_params', { field: 'trainingSlots' });
      }
      if (p.trainingSlots !== undefined) jobs.setSlots('training', p.trainingSlots);
      return jobs.lanes(LANE_ORDER);
    },
    'model.estimate': modelEstimate,
    'datasets.presets': datasetPresets,
    'datasets.generate': (p) => jobs.start('generate', p),
    'datasets.sample': datasetSample,
    'datasets.inspect': datasetInspect,
    'datasets.import': (p) => jobs.start('import', p),
    'datasets.stats': datasetStatsCall,
    // An unknown dataset is refused at once, not as a failed job.
    'datasets.export': (p) => {
      datasetStore(p.workspace, p.id);
      return jobs.start('export', p);
    },
    'train.start': async (p) => {
      await initBackend();
      return { runId: p.runId, job: training.start(p.workspace, p.runId) };
    },
    'train.adopt': (p) => training.adopt(p.workspace),
    'train.torch': (p) => cachedTorchProbe(pythonCommand(readSettings().python), p.refresh),
    'train.calibrate': (p) => training.calibrate(p.workspace, p.config, p.steps),
    'train.torchSpeed': torchSpeedCall,
    'train.measureTorchSpeed': (p) => startTorchSpeed(p, (params) => jobs.start('torch-speed', params)),
    'train.pause': (p) => ({ ok: training.pause(p.id) }),
    'train.resume': (p) => training.resumeWhenEnded(p.workspace, p.id),
    'train.stop': (p) => ({ ok: training.stop(p.id, p.workspace) }),
    'runs.evaluate': async (p) => {
      await initBackend();
      const { workspace, id, ...rest } = p;
      new RunStore(join(workspace, 'runs')).open(id);
      return jobs.start('evaluate', { workspace, runId: id, ...rest });
    },
    // One sample's forward pass: answered directly, not as a job.
    'runs.lightMaps': lightMapsCall,
    // A split's worth of forward passes: a job; a non-LiNO or non-Darcy run is refused at once.
    'runs.lightMapsCorrelation': async (p) => {
      checkCorrelationRun(p);
      await initBackend();
      return jobs.start('lightmaps-correlation', { ...p });
    },
    // Timings in a worker of the analysis lane; an unknown run is refused at once.
    'cost.benchmark': (p) => {
      checkCostRuns(p);
      return jobs.start('cost', { ...p });
    },
    // An unknown run is refused at once, not as a failed job; the folder is chosen in the job.
    'runs.exportForCluster': (p) => {
      new RunStore(join(p.workspace, 'runs')).open(p.id);
      return jobs.start('cluster-export', { workspace: p.workspace, runId: p.id, nprocPerNode: p.nprocPerNode ?? 1, nodes: p.nodes ?? 1 });
    },
    'runs.importCheckpoint': importCheckpointCall,
    // The paper's reproductions (the host adds `workspace` to start): an unknown preset is refused at once.
    'reproduce.list': reproduceList,
    'reproduce.results': reproduceResults,
    'reproduce.start': async (p) => {
      refuseRepeat(p);
      await initBackend();
      return jobs.start('reproduce', p);
    },
    // in the Playground's worker: a 512 x 512 forward pass or field would hold the engine thread
    'playground.predict': (p) => playgroundLaneCall('playground.predict', p) as ReturnType<typeof playgroundPredictCall>,
    'playground.solve': (p) => playgroundSolveCall(p, (params) => jobs.start('playground-solve', { ...params, workspace: p.workspace })),
    'playground.draw': (p) => playgroundLaneCall('playground.draw', p) as ReturnType<typeof playgroundDrawCall>,
    'playground.trust': (p) => playgroundLaneCall('playground.trust', p) as ReturnType<typeof playgroundTrustCall>,
    'playground.save': (p) => (p.into ? playgroundAppendCall({ ...p, into: p.into }) : playgroundSaveCall(p)),
    'playground.sample': playgroundSampleCall,
    'playground.appendable': playgroundAppendableCall,
    'playground.export': playgroundExportCall,
    'sweeps.start': async (p: { workspace: string; config: unknown; id?: string }) => {
      await initBackend();
      return sweepJobs.start(p.workspace, p.config, p.id);
    },
    'sweeps.list': (p: { workspace: string }) => sweepJobs.list(p.workspace),
    'sweeps.get': (p: { workspace: string; id: string }) => sweepJobs.get(p.workspace, p.id),
    'sweeps.control': async (p: { workspace: string; id: string; action: 'pause' | 'resume' | 'stop' }) => {
      await initBackend();
      return sweepJobs.control(p.workspace, p.id, p.action);
    },
  };
  return handlers;
}

/** Answers the host's calls from `handlers` (a data file's problem carries its file to the view). */
function answerCalls(parent: ParentChannel, handlers: EngineHandlers, registered: Promise<void>): void {
  parent.onMessage(async (msg: ToEngine) => {
    if (msg.type === 'shutdown') process.exit(0);
    await registered;
    if (msg.type !== 'call' && msg.type !== 'call-json') return;
    // params sent as text go to their worker as text (playground-lane.ts); a handler in this thread gets them parsed
    const params = msg.type === 'call' ? msg.params : LANE_TEXT_HANDLERS.has(msg.method) ? new JsonText(msg.json) : (JSON.parse(msg.json) as unknown);
    const handler = Object.hasOwn(handlers, msg.method) ? (handlers[msg.method as keyof EngineHandlers] as (p: unknown) => unknown) : undefined;
    try {
      if (!handler) throw new ApiError(`the engine has no method '${msg.method}'`, 'unknown_method');
      const result = await handler(params);
      if (result instanceof JsonText) parent.send({ type: 'result-json', id: msg.id, json: result.json });
      else parent.send({ type: 'result', id: msg.id, ok: true, result });
    } catch (e) {
      // A data file's problem carries the file to the view (its message names it as well).
      const err = e instanceof DataError && e.file ? new ApiError(e.message, 'failed', { file: e.file }) : ApiError.from(e);
      parent.send({ type: 'result', id: msg.id, ok: false, error: err.toJSON() });
    }
  });
}

export function startEngine(parent: ParentChannel): void {
  const startedAt = new Date().toISOString();
  const jobs = new JobQueue((job) => parent.send(jobEventMessage(job)));

  // Sweeps follow their trials through the training events (rungs, ends).
  let sweeps: SweepJobs | null = null;
  const training = new TrainingJobs(jobs, (event) => {
    parent.send({ type: 'event', event });
    sweeps?.onEvent(event);
  });
  sweeps = new SweepJobs(training, (message) => parent.send({ type: 'event', event: { type: 'log', level: 'info', message } }));
  const sweepJobs = sweeps;
  // Training in the engine thread (LINO_TRAIN_IN_THREAD=1) shares one tfjs: one run at a time there.
  jobs.setSlots('training', training.inThread ? 1 : defaultTrainingSlots());

  // the job bodies load as modules (job-handlers.ts): calls wait for them, and ready follows them
  const registered = registerJobs(jobs, { training });
  answerCalls(parent, engineHandlers(jobs, training, sweepJobs, startedAt), registered);
  registered.then(
    () => parent.send({ type: 'ready', pid: process.pid }),
    (e: unknown) => {
      console.error(`the engine could not load its job kinds: ${errorMessage(e)}`);
      process.exit(1);
    },
  );
}
