// A run trained by PyTorch (config backend 'torch'): an ordinary workspace run, trained by
// `python -m scaleout.train` (or torchrun for several GPUs) on the configured interpreter.
// The engine holds the run's lock (handed to the Python process once it runs, so an engine restart
// does not free it), prepares the data once per dataset in the prepared layout (torch-data-cache.ts),
// writes the workbench's own initial weights for the seed as checkpoints/last at epoch 0 (so both
// backends start from the same weights and a torch run equals an engine run), starts Python and
// follows metrics.jsonl as it grows, calling the same hooks as the engine's trainer (step and epoch
// records, logs). Stop and pause go to Python on its stdin (scaleout/control.py): a stop ends at the
// next step boundary with checkpoints/last holding the last finished epoch, as the engine's own
// trainer does; a pause waits between two steps. A Python that fails leaves its traceback's tail in
// events.log and the run's reason; one killed (kill -9) leaves the run interrupted, resumable from
// checkpoints/last on either backend. Following is torch-follow.ts's (shared with a run a later
// engine adopts after a restart, torch-adopt.ts, from the torch/process.json written here).
import { spawn, type ChildProcess } from 'node:child_process';
import { hostname } from 'node:os';
import { closeSync, existsSync, lstatSync, mkdirSync, openSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { parseRunConfig, recordResolvedData, refuseLostCheckpoint, type RunHooks, type RunOutcome } from './runner';
import type { RunHandle } from '../runs/run-store';
import { acquireRunLock, type RunLock } from '../runs/run-lock';
import { loadCheckpoint, saveCheckpoint } from '../runs/checkpoint';
import { stateDict, weightsMetadata } from '../runs/state-dict';
import { Trainer, modelConfigFor } from './trainer';
import { loadTrainData } from './data-source';
import { countOf, type TrainData } from './data';
import type { TrainConfig } from './config';
import { cachedTorchProbe, pythonCommand } from './torch-probe';
import { defaultTorchDevice, torchDeviceProblem, type TorchDevice, type TorchReport } from './torch-report';
import { TORCH_DATA_DIR, torchDataFolder } from './torch-data-cache';
import { scaleoutRoot } from './scaleout-dir';
import { childPython, followPython, TORCH_RUN_DIR } from './torch-follow';
import { writeTorchProcessRecord } from './torch-adopt';
import { writeJsonAtomic } from '../util/atomic-file';
import { errorMessage } from '../util/error-message';

export interface TorchRunHooks extends RunHooks {
  /** Polled while Python trains: true asks it to pause between two steps. */
  isPaused?: () => boolean;
  /** The interpreter (default: LINO_PYTHON, else python3). */
  python?: string;
  /** Overrides the config's torch device and GPUs (`lino train --resume ID --backend torch:cuda`). */
  device?: TorchDevice;
  gpus?: number;
  /** Tests: the Python process once started. */
  onProcess?: (child: ChildProcess) => void;
}

export { TORCH_RUN_DIR, pythonFailureReason } from './torch-follow';

/** Trains a torch run, holding its lock (handed to the Python process while it runs). */
export async function trainTorchRun(run: RunHandle, hooks: TorchRunHooks = {}): Promise<RunOutcome> {
  const lock = acquireRunLock(run.id, run.dir, hooks.owner ?? 'a trainer', (m) => {
    run.log(m);
    hooks.onLog?.(m);
  });
  try {
    return await torchLocked(run, hooks, lock);
  } finally {
    lock.release();
  }
}

/** `--backend torch[:cpu|:cuda|:mps]` -> the device (undefined: the probe's default); null when it is not torch. */
export function parseTorchBackend(flag: string): { device?: TorchDevice } | null {
  const m = /^torch(?::(cpu|cuda|mps))?$/.exec(flag);
  if (!m) return null;
  return m[1] ? { device: m[1] as TorchDevice } : {};
}

/** The device a run asks for, and why it cannot run here (null when it can). */
export function resolveTorchDevice(cfg: Pick<TrainConfig, 'torch'>, probe: TorchReport): { device: TorchDevice; gpus: number; problem: string | null } {
  const device = cfg.torch?.device ?? defaultTorchDevice(probe);
  const gpus = cfg.torch?.gpus ?? 1;
  return { device, gpus, problem: torchDeviceProblem(probe, device, gpus) };
}

interface Prepared {
  cfg: TrainConfig;
  data: TrainData;
  dataDir: string;
  device: TorchDevice;
  gpus: number;
  python: string;
  /** metrics.jsonl records checkpoints/last covers. */
  records: number;
  stepsPerEpoch: number;
}

async function torchLocked(run: RunHandle, hooks: TorchRunHooks, lock: RunLock): Promise<RunOutcome> {
  const log = (m: string) => {
    run.log(m);
    hooks.onLog?.(m);
  };
  const st0 = run.readStatus();
  const at = { epoch: st0.epoch ?? 0, step: st0.step ?? 0 };
  let prep: Prepared | RunOutcome;
  try {
    prep = await prepareTorchRun(run, hooks, log);
  } catch (e) {
    if (hooks.signal?.aborted) return stopped(run, log, at, 'torch');
    const reason = errorMessage(e);
    run.writeStatus({ state: 'failed', pid: process.pid, backend: 'torch', reason, ...at });
    log(`failed: ${reason}`);
    return { state: 'failed', reason, ...at };
  }
  if (!('data' in prep)) return prep;
  if (hooks.signal?.aborted) return stopped(run, log, at, 'torch');
  return runPython(run, hooks, lock, prep, log);
}

function stopped(run: RunHandle, log: (m: string) => void, at: { epoch: number; step: number }, backend: string): RunOutcome {
  const reason = 'stopped by the user';
  run.writeStatus({ state: 'stopped', pid: process.pid, backend, reason, ...at });
  log(`stopped by the user before PyTorch started; checkpoints/last holds epoch ${at.epoch}`);
  return { state: 'stopped', reason, ...at };
}

/** Probe, data (cached), config and model for Python, the starting checkpoint; a refusal as an outcome. */
async function prepareTorchRun(run: RunHandle, hooks: TorchRunHooks, log: (m: string) => void): Promise<Prepared | RunOutcome> {
  const raw = run.readConfig();
  const cfg = parseRunConfig(raw, run.configPath);
  const python = hooks.python ?? pythonCommand();
  const probe = await cachedTorchProbe(python);
  const { device, gpus, problem } = resolveTorchDevice({ ...cfg, torch: { ...cfg.torch, ...(hooks.device ? { device: hooks.device } : {}), gpus: hooks.gpus ?? cfg.torch?.gpus ?? 1 } }, probe);
  if (problem) {
    const reason = `backend torch: ${problem}${probe.ok ? '' : `. ${probe.install ?? ''}`}`;
    const st = run.readStatus();
    run.writeStatus({ state: 'failed', pid: process.pid, backend: 'torch', reason, ...(st.epoch !== undefined ? { epoch: st.epoch } : {}) });
    log(`refused before starting: ${reason}`);
    return { state: 'failed', reason, epoch: st.epoch ?? 0, step: st.step ?? 0 };
  }
  if (!hooks.data) log(`preparing the data (${cfg.data.kind})`);
  const data = hooks.data ?? await loadTrainData(cfg.data, { workspace: hooks.workspace, keepGenerated: !cfg.group, signal: hooks.signal, onProgress: log });
  recordResolvedData(run, raw, data);
  const root = hooks.workspace ? join(hooks.workspace, TORCH_DATA_DIR) : join(run.dir, TORCH_RUN_DIR, 'data');
  const dataDir = await torchDataFolder(cfg, data, root, log);
  const dir = join(run.dir, TORCH_RUN_DIR);
  mkdirSync(dir, { recursive: true });
  // Every default filled in, and the model exactly as the registry builds it on this data.
  writeJsonAtomic(join(dir, 'config.json'), JSON.parse(JSON.stringify(cfg)));
  writeJsonAtomic(join(dir, 'model.json'), { kind: cfg.model.kind, ...modelConfigFor(cfg, data) });
  const records = await startingCheckpoint(run, cfg, data, log);
  const stepsPerEpoch = Math.ceil(countOf(data.train) / cfg.batchSize);
  hooks.onPlan?.(
    { backend: `torch-${device}`, capBytes: 0, batchSize: cfg.batchSize, microBatch: cfg.batchSize, estimateBytes: 0, perSampleBytes: 0, fixedBytes: 0, fits: true, message: `PyTorch ${probe.torch} on ${device}${gpus > 1 ? ` x${gpus}` : ''}, batch ${cfg.batchSize}` },
    { epochs: cfg.epochs, stepsPerEpoch, totalSteps: cfg.epochs * stepsPerEpoch },
  );
  return { cfg, data, dataDir, device, gpus, python, records, stepsPerEpoch };
}

/**
 * checkpoints/last for Python to resume from: the existing one (written by either backend), or
 * the workbench's own initial weights for the seed at epoch 0, so both backends start alike.
 * Returns the metrics records it covers (the later ones are dropped, as a resume does).
 */
async function startingCheckpoint(run: RunHandle, cfg: TrainConfig, data: TrainData, log: (m: string) => void): Promise<number> {
  const last = loadCheckpoint(run.dir, 'last');
  if (last) {
    run.truncateMetrics(last.state.metricsRecords);
    return last.state.metricsRecords;
  }
  refuseLostCheckpoint(run, join(run.dir, 'checkpoints', 'last'));
  run.truncateMetrics(0);
  const trainer = new Trainer(cfg, data, 'cpu');
  try {
    const { state, optimizer } = await trainer.checkpointState(0);
    const weights = await stateDict(trainer.model);
    saveCheckpoint(run.dir, 'last', weights, optimizer, { ...state, backend: 'workbench-init' }, weightsMetadata(trainer.model, state.normalizer));
    log(`wrote the workbench's initial weights for seed ${cfg.seed} as checkpoints/last (epoch 0): PyTorch starts from them`);
  } finally {
    trainer.dispose();
  }
  return 0;
}

/** The config's microBatch when it is a number ('auto': scaleout trains the whole batch at once). */
const microOf = (cfg: TrainConfig) => (typeof cfg.microBatch === 'number' ? { microBatch: cfg.microBatch } : {});

/** The command line: python -m scaleout.train, or torchrun (python -m torch.distributed.run) for several GPUs. */
export function torchCommand(p: { python: string; runDir: string; dataDir: string; device: TorchDevice; gpus: number; threads?: number; maxEpochs?: number }): { cmd: string; args: string[] } {
  const dir = join(p.runDir, TORCH_RUN_DIR);
  const train = ['-m', 'scaleout.train', '--run-dir', p.runDir, '--data', p.dataDir, '--config', join(dir, 'config.json'), '--model', join(dir, 'model.json'), '--device', p.device, '--control', 'stdin', ...(p.threads ? ['--threads', String(p.threads)] : []), ...(p.maxEpochs !== undefined ? ['--max-epochs', String(p.maxEpochs)] : [])];
  if (p.gpus <= 1) return { cmd: p.python, args: ['-u', ...train] };
  // --redirects 2 --tee 2: Debian's torch 1.13 cannot parse the default 0 (docs/scaleout.md); newer torch accepts them
  return { cmd: p.python, args: ['-u', '-m', 'torch.distributed.run', '--standalone', `--nproc_per_node=${p.gpus}`, '--redirects', '2', '--tee', '2', ...train] };
}

/** Starts Python, follows its records and output until it exits; the outcome from its status.json. */
async function runPython(run: RunHandle, hooks: TorchRunHooks, lock: RunLock, p: Prepared, log: (m: string) => void): Promise<RunOutcome> {
  const dir = join(run.dir, TORCH_RUN_DIR);
  const outPath = join(dir, 'python.log');
  const root = scaleoutRoot();
  // maxEpochsThisCall (RunHooks): Python stops after that many epochs of this call, status stopped, as the engine's trainer does
  const { cmd, args } = torchCommand({ python: p.python, runDir: run.dir, dataDir: p.dataDir, device: p.device, gpus: p.gpus, ...(hooks.maxEpochsThisCall !== undefined ? { maxEpochs: hooks.maxEpochsThisCall } : {}) });
  // Python's output goes to a file, not a pipe: it trains on if the engine goes away (a broken pipe would end it).
  // a run folder may come from elsewhere: a FIFO or a link planted as python.log would block or redirect the write
  if (existsSync(outPath) && !lstatSync(outPath).isFile()) throw new Error(`${outPath}: is not a regular file; Python's output is not written there (expected the run's own python.log; remove it and resume)`);
  const outStart = existsSync(outPath) ? statSync(outPath).size : 0;
  const out = openSync(outPath, 'a');
  // no .pyc next to scaleout/: inside the desktop app that folder is part of the signed bundle
  const env = { ...process.env, PYTHONPATH: [root, process.env.PYTHONPATH].filter(Boolean).join(process.platform === 'win32' ? ';' : ':'), PYTHONUNBUFFERED: '1', PYTHONDONTWRITEBYTECODE: '1' };
  // running (this process) until Python writes its own status with its pid
  const st = run.readStatus();
  run.writeStatus({ state: 'running', pid: process.pid, backend: `torch-${p.device}`, ...(st.epoch !== undefined ? { epoch: st.epoch } : {}), ...(st.step !== undefined ? { step: st.step } : {}) });
  let child: ChildProcess;
  try {
    child = spawn(cmd, args, { cwd: root, env, stdio: ['pipe', out, out] });
  } finally {
    closeSync(out);
  }
  const spawned = await new Promise<Error | null>((resolve) => {
    child.once('spawn', () => resolve(null));
    child.once('error', (e) => resolve(e));
  });
  if (spawned) {
    const reason = `backend torch: cannot start ${cmd}: ${errorMessage(spawned)}`;
    run.writeStatus({ state: 'failed', pid: process.pid, backend: 'torch', reason });
    log(`failed: ${reason}`);
    return { state: 'failed', reason, epoch: 0, step: 0 };
  }
  // for an engine that adopts the run after a restart (torch-adopt.ts): written before the lock names Python, which makes the run adoptable
  writeTorchProcessRecord(run, { pid: child.pid!, host: hostname(), python: p.python, device: p.device, gpus: p.gpus, batchSize: p.cfg.batchSize, ...microOf(p.cfg), epochs: p.cfg.epochs, stepsPerEpoch: p.stepsPerEpoch, outStart, startedAt: new Date().toISOString() });
  lock.handOver(child.pid!, `PyTorch (${p.python}, started by ${hooks.owner ?? 'a trainer'})`);
  hooks.onProcess?.(child);
  log(`started PyTorch: ${cmd} ${args.join(' ')} (process ${child.pid}, in ${root})`);
  return followPython(run, hooks, childPython(child), { batchSize: p.cfg.batchSize, ...microOf(p.cfg), device: p.device, outStart, replayFrom: outStart }, log);
}
