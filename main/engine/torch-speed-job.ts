// The backend picker's measured "x× faster" (main/train/torch-speed.ts) as engine calls and a job:
// train.torchSpeed reads the workspace's measurements that hold for the current interpreter and
// engine backend; train.measureTorchSpeed checks the device against the probe at once and queues a
// 'torch-speed' job, which times both sides in a worker of the analysis lane and keeps the result.
import { ApiError } from '../api/api-error';
import type { EngineParams, JobSummary } from '../api/contract';
import type { JobContext } from './jobs';
import type { JobParams } from './job-params';
import { cachedTorchProbe, pythonCommand } from '../train/torch-probe';
import { torchDeviceProblem } from '../train/torch-report';
import { currentTorchSpeeds, measureTorchSpeed, saveTorchSpeed } from '../train/torch-speed';
import type { TorchSpeed } from '../train/torch-speed-record';
import { readSettings } from '../workspace/settings';
import { initBackend, tf } from './tf-runtime';

export const torchSpeedLabel = (p: JobParams['torch-speed']) => `PyTorch speed on ${p.device}`;

/** train.torchSpeed: what was measured for this interpreter, its torch and the engine's backend. */
export async function torchSpeedCall(p: EngineParams<'train.torchSpeed'>): Promise<{ engineBackend: string; measured: TorchSpeed[]; problem?: string }> {
  const engineBackend = (await initBackend()).active;
  const probe = await cachedTorchProbe(pythonCommand(readSettings().python));
  const r = currentTorchSpeeds(p.workspace, probe, engineBackend);
  return { engineBackend, measured: r.entries, ...(r.problem ? { problem: r.problem } : {}) };
}

/** train.measureTorchSpeed: refused at once when the probe rules the device out; else the job. */
export async function startTorchSpeed(p: EngineParams<'train.measureTorchSpeed'>, start: (params: JobParams['torch-speed']) => JobSummary): Promise<JobSummary> {
  const python = pythonCommand(readSettings().python);
  const probe = await cachedTorchProbe(python);
  const problem = torchDeviceProblem(probe, p.device);
  if (problem) throw new ApiError(`train.measureTorchSpeed: field 'device': ${p.device} cannot be timed: ${problem}${probe.ok ? '' : `. ${probe.install ?? ''}`}`, 'invalid_params', { field: 'device' });
  await initBackend();
  return start({ ...p, python, probe });
}

/** The job's body (in the analysis lane's worker): torch's steps, then the engine's, kept in the workspace. */
export async function runTorchSpeed(p: JobParams['torch-speed'], ctx: JobContext): Promise<TorchSpeed> {
  const s = await measureTorchSpeed({
    python: p.python, probe: p.probe, device: p.device, engineBackend: tf.getBackend(), steps: p.steps, signal: ctx.signal,
    onProgress: (f, m) => ctx.progress(f, m),
  });
  saveTorchSpeed(p.workspace, s);
  return s;
}
