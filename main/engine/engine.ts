// The engine: answers calls from a host over a ParentChannel. All tensor work happens here,
// in its own process, never in a UI thread.
import { ApiError, type EngineMethod } from '../api/contract';
import { DataError } from '../data/formats/errors';
import type { ParentChannel, ToEngine } from '../api/engine-protocol';
import { JobQueue, type JobHandler } from './jobs';
import { inJobWorker } from './job-worker-run';
import { defaultTrainingSlots, LANE_ORDER } from './job-lanes';
import { initBackend, tf } from './tf-runtime';
import { runSelfTest } from './selftest-job';
import { modelEstimate } from './model-estimate';
import { datasetInspect, datasetPresets, datasetSample, generateLabel, importLabel, runGenerate, runImport } from './dataset-jobs';
import { TrainingJobs } from './train-jobs';
import { datasetStore, exportLabel, runDatasetExport } from './dataset-export-jobs';
import { datasetStatsCall } from './dataset-stats-call';
import { RunStore } from '../runs/run-store';
import { importCheckpointCall } from './import-checkpoint-call';
import { clusterExportLabel, runClusterExport } from './cluster-export-job';
import { join } from 'node:path';
import { lightMapsCall } from './light-maps-call';
import { checkCorrelationRun, lightMapsCorrelationLabel, runLightMapsCorrelation, type LightMapsCorrelationParams } from './light-maps-correlation-job';
import { reproduceLabel, reproduceList, reproducePreset, runReproduce } from './reproduce-job';
import { VERSION } from '../version';
import { availableParallelism } from 'node:os';

type Handler = (params: any) => unknown | Promise<unknown>;

/** Host calls whose host handler does its own part first, then asks the engine (WorkbenchService's cancelJob, startTraining). */
type ForwardedByHost = 'jobs.cancel' | 'train.start';

export function startEngine(parent: ParentChannel): void {
  const startedAt = new Date().toISOString();
  const jobs = new JobQueue((job) => parent.send({ type: 'event', event: { type: 'job', job } }));
  jobs.register('selftest', {
    label: (p) => `Engine self-test (${Number(p.steps ?? 20)} steps)`,
    run: runSelfTest,
  });
  jobs.register('generate', { label: generateLabel, run: runGenerate });
  jobs.register('import', { label: importLabel, run: runImport });
  jobs.register('export', { label: exportLabel, run: runDatasetExport });
  jobs.register('cluster-export', { label: clusterExportLabel, run: runClusterExport });
  jobs.register('reproduce', { label: reproduceLabel, run: runReproduce });
  jobs.register('lightmaps-correlation', { label: lightMapsCorrelationLabel, run: inJobWorker('lightmaps-correlation', runLightMapsCorrelation as JobHandler) });

  const training = new TrainingJobs(jobs, (event) => parent.send({ type: 'event', event }));
  // Training in the engine thread (LINO_TRAIN_IN_THREAD=1) shares one tfjs: one run at a time there.
  jobs.setSlots('training', training.inThread ? 1 : defaultTrainingSlots());

  // Every call the contract routes to the engine (route 'engine' or 'engine+workspace'), and only those
  // (plus ForwardedByHost): a missing or an extra handler is a compile error. The host has already resolved
  // file references to `path` and, for 'engine+workspace' calls, added its open workspace folder as `workspace`.
  const handlers: { [M in EngineMethod | ForwardedByHost]: Handler } = {
    'engine.info': async () => ({
      version: VERSION,
      pid: process.pid,
      node: process.version,
      tfjs: tf.version_core,
      backend: await initBackend(),
      startedAt,
      cores: availableParallelism(),
    }),
    'engine.ping': (p: { t: number }) => ({ t: p.t, engineTime: Date.now() }),
    'jobs.start': async (p: { kind: string; params: Record<string, unknown>; workspace: string }) => {
      // Train and evaluate jobs name a run: they start only through train.start and runs.evaluate,
      // which check the run first, never through a client's jobs.start.
      const through: Record<string, string> = { train: 'train.start', evaluate: 'runs.evaluate', 'cluster-export': 'runs.exportForCluster', reproduce: 'reproduce.start', 'lightmaps-correlation': 'runs.lightMapsCorrelation' };
      if (Object.hasOwn(through, p.kind)) {
        throw new ApiError(`jobs.start: '${p.kind}' jobs start through ${through[p.kind]}`, 'invalid_params', { field: 'kind' });
      }
      await initBackend();
      return jobs.start(p.kind, { ...p.params, workspace: p.workspace });
    },
    'jobs.cancel': (p: { id: string }) => ({ ok: jobs.cancel(p.id) }),
    'jobs.list': () => jobs.list(),
    'jobs.lanes': (p: { trainingSlots?: number }) => {
      if (p.trainingSlots !== undefined && training.inThread && p.trainingSlots > 1) {
        throw new ApiError('jobs.lanes: trainingSlots: this engine trains in its own thread (LINO_TRAIN_IN_THREAD=1), so one run at a time', 'invalid_params', { field: 'trainingSlots' });
      }
      if (p.trainingSlots !== undefined) jobs.setSlots('training', p.trainingSlots);
      return jobs.lanes(LANE_ORDER);
    },
    'model.estimate': modelEstimate,
    'datasets.presets': datasetPresets,
    'datasets.generate': (p: Record<string, unknown>) => jobs.start('generate', p),
    'datasets.sample': datasetSample,
    'datasets.inspect': datasetInspect,
    'datasets.import': (p: Record<string, unknown>) => jobs.start('import', p),
    'datasets.stats': datasetStatsCall,
    // An unknown dataset is refused at once, not as a failed job.
    'datasets.export': (p: { workspace: string; id: string }) => {
      datasetStore(p.workspace, p.id);
      return jobs.start('export', p);
    },
    // The host created the run (runs/<runId>) and forwards train.start with its id.
    'train.start': async (p: { workspace: string; runId: string }) => {
      await initBackend();
      return { runId: p.runId, job: training.start(p.workspace, p.runId) };
    },
    'train.calibrate': (p: { workspace: string; config: unknown; steps?: number }) => training.calibrate(p.workspace, p.config, p.steps),
    'train.pause': (p: { id: string }) => ({ ok: training.pause(p.id) }),
    'train.resume': (p: { workspace: string; id: string }) => training.resume(p.workspace, p.id),
    'train.stop': (p: { id: string; workspace: string }) => ({ ok: training.stop(p.id, p.workspace) }),
    'runs.evaluate': async (p: { workspace: string; id: string } & Record<string, unknown>) => {
      await initBackend();
      const { workspace, id, ...rest } = p;
      new RunStore(join(workspace, 'runs')).open(id);
      return jobs.start('evaluate', { workspace, runId: id, ...rest });
    },
    // One sample's forward pass: answered directly, not as a job.
    'runs.lightMaps': lightMapsCall,
    // A split's worth of forward passes: a job; a non-LiNO or non-Darcy run is refused at once.
    'runs.lightMapsCorrelation': async (p: LightMapsCorrelationParams) => {
      checkCorrelationRun(p);
      await initBackend();
      return jobs.start('lightmaps-correlation', { ...p });
    },
    // An unknown run is refused at once, not as a failed job; the folder is chosen in the job.
    'runs.exportForCluster': (p: { workspace: string; id: string; nprocPerNode?: number; nodes?: number }) => {
      new RunStore(join(p.workspace, 'runs')).open(p.id);
      return jobs.start('cluster-export', { workspace: p.workspace, runId: p.id, nprocPerNode: p.nprocPerNode ?? 1, nodes: p.nodes ?? 1 });
    },
    'runs.importCheckpoint': importCheckpointCall,
    // The paper's reproductions (the host adds `workspace` to start): an unknown preset is refused at once.
    'reproduce.list': reproduceList,
    'reproduce.start': async (p: { workspace: string; name: string; size: string }) => {
      reproducePreset(p.name);
      await initBackend();
      return jobs.start('reproduce', p);
    },
  };

  parent.onMessage(async (msg: ToEngine) => {
    if (msg.type === 'shutdown') process.exit(0);
    if (msg.type !== 'call') return;
    const handler = Object.hasOwn(handlers, msg.method) ? handlers[msg.method as EngineMethod | ForwardedByHost] : undefined;
    try {
      if (!handler) throw new ApiError(`the engine has no method '${msg.method}'`, 'unknown_method');
      const result = await handler(msg.params);
      parent.send({ type: 'result', id: msg.id, ok: true, result });
    } catch (e) {
      // A data file's problem carries the file to the view (its message names it as well).
      const err = e instanceof DataError && e.file ? new ApiError(e.message, 'failed', { file: e.file }) : ApiError.from(e);
      parent.send({ type: 'result', id: msg.id, ok: false, error: err.toJSON() });
    }
  });
  parent.send({ type: 'ready', pid: process.pid });
}
