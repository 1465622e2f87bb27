// PyTorch as the engine's probe found it (train.torch), and how much faster it trains here
// (train.torchSpeed, measured by train.measureTorchSpeed as a 'torch-speed' job): the backend picker
// of the Training, Ablation and Reproduce views offers the torch devices the probe reports, says how
// to install PyTorch when it is not usable, and shows the measured speed. The choices themselves are
// logic/backend-choice.ts.
import type { JobSummary, TorchReport, TorchSpeed } from '../../../main/api/contract';
import { errorText } from '../api/error-text';
import { useQuery } from './use-query';
import { requireApi, useApp } from '../stores/app-store';
import type { TorchChoiceDevice } from '../logic/backend-choice';

export const useTorchProbe = () => useQuery('train.torch', (a) => a.call('train.torch', {}));

/** The stored interpreter setting and LINO_PYTHON (which wins over it). */
export const usePythonSetting = () => useQuery('settings.python', (a) => a.call('settings.python', {}));

/** Stores the interpreter (null: back to the default) and probes it again; answers the new probe. */
export async function savePythonSetting(python: string | null): Promise<TorchReport> {
  const api = useApp.getState().api;
  if (!api) throw new Error('not connected to the workbench');
  await api.call('settings.python', { python });
  return api.call('train.torch', { refresh: true });
}

/** The label of a device's measuring job (main/engine/torch-speed-job.ts `torchSpeedLabel`). */
const speedLabel = (device: TorchChoiceDevice) => `PyTorch speed on ${device}`;

/** The newest torch-speed job for `device` (queued, running or ended), from the app's job events. */
export function speedJob(jobs: Record<string, JobSummary>, device: TorchChoiceDevice): JobSummary | null {
  const mine = Object.values(jobs).filter((j) => j.kind === 'torch-speed' && j.label === speedLabel(device));
  return mine.sort((a, b) => (b.seq ?? 0) - (a.seq ?? 0))[0] ?? null;
}

/** The workspace's measurements for this interpreter and engine backend, read again when `version` changes (a measurement ended). */
export function useTorchSpeeds(version: string): { measured: TorchSpeed[]; engineBackend: string | null; problem: string | null } {
  const path = useApp((s) => s.workspace?.path ?? '');
  const q = useQuery(`train.torchSpeed:${path}:${version}`, (a) => a.call('train.torchSpeed', {}), { keep: true });
  return { measured: q.value?.measured ?? [], engineBackend: q.value?.engineBackend ?? null, problem: q.error ?? q.value?.problem ?? null };
}

/** Starts a measurement of `device` against the engine; the job, or why not. */
export async function measureTorchSpeed(device: TorchChoiceDevice): Promise<{ job: JobSummary } | { error: string }> {
  try {
    return { job: await requireApi().call('train.measureTorchSpeed', { device }) };
  } catch (e) {
    return { error: errorText(e) };
  }
}
