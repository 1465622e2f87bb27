// The backend picker of the Training, Ablation and Reproduce views: the workbench's own engine, or
// PyTorch (cpu, cuda, mps) through the Python the engine found. A torch choice the probe rules out is
// shown disabled, with why and how to install PyTorch. Where torch is found, it says how much faster
// torch trains than the engine here, from a measurement on this machine (a 'torch-speed' job, kept
// per workspace): taken once when a torch device is first chosen, again on request.
import { useEffect, useId, useState } from 'react';
import type { TorchReport, TorchSpeed } from '../../../main/api/contract';
import { BACKEND_CHOICES, choiceDevice, choiceProblem, speedRatioText, speedText, type BackendChoice, type TorchChoiceDevice } from '../logic/backend-choice';
import { measureTorchSpeed, speedJob, useTorchSpeeds } from '../queries/torch-probe';
import { useApp } from '../stores/app-store';
import { JobProgress } from './job-progress';

const LABEL: Record<BackendChoice, string> = {
  engine: 'Workbench engine (default)',
  'torch:cpu': 'PyTorch, CPU',
  'torch:cuda': 'PyTorch, CUDA GPU',
  'torch:mps': 'PyTorch, Apple MPS',
};

/** Devices measured automatically once in this session (a failed one is not retried by itself). */
const autoMeasured = new Set<string>();

/** "16:02" today, "Nov 27 16:02" another day. */
function clock(iso: string): string {
  const d = new Date(iso);
  const time = d.toLocaleTimeString([], { hour: '2-digit', minute: '2-digit', hourCycle: 'h23' });
  return d.toDateString() === new Date().toDateString() ? time : `${d.toLocaleDateString([], { month: 'short', day: 'numeric' })} ${time}`;
}

/** The device whose speed the picker shows: the chosen torch device, else the probe's best. */
function shownDevice(value: BackendChoice, probe: TorchReport): TorchChoiceDevice {
  return choiceDevice(value) ?? (probe.cuda.length > 0 ? 'cuda' : probe.mps ? 'mps' : 'cpu');
}

function TorchSpeedLine({ device, auto, measured, problem, testId }: { device: TorchChoiceDevice; auto: boolean; measured: TorchSpeed | undefined; problem: string | null; testId: string }) {
  const jobs = useApp((s) => s.jobs);
  const workspace = useApp((s) => s.workspace?.path ?? '');
  const job = speedJob(jobs, device);
  const busy = job?.state === 'queued' || job?.state === 'running';
  const [startError, setStartError] = useState<string | null>(null);
  const measure = () => {
    setStartError(null);
    void measureTorchSpeed(device).then((r) => setStartError('error' in r ? r.error : null));
  };
  useEffect(() => {
    const key = `${workspace}|${device}`;
    if (!auto || measured || job || autoMeasured.has(key)) return;
    autoMeasured.add(key);
    measure();
  }, [auto, measured, job, device, workspace]);
  return (
    <p className="small" data-testid={`${testId}-speed`}>
      {measured ? speedText(measured, clock) : busy ? null : `torch ${device}: not measured against the engine on this machine yet.`}{' '}
      {busy ? (
        <JobProgress job={job} label={`Measuring torch ${device} against the engine`} testId={`${testId}-measuring`} />
      ) : (
        <button className="link" onClick={measure} data-testid={`${testId}-measure`} title="Times a few training steps of a small LiNO on torch and on the engine (about 10 s)">
          {measured ? 'Measure again' : 'Measure'}
        </button>
      )}
      {job?.state === 'failed' && <span className="error-message" role="alert" data-testid={`${testId}-speed-error`}> The measurement failed: {job.error}</span>}
      {startError && <span className="error-message" role="alert" data-testid={`${testId}-speed-error`}> Could not measure: {startError}</span>}
      {problem && <span className="error-message"> {problem}</span>}
    </p>
  );
}

export interface BackendPickerProps {
  value: BackendChoice;
  onChange: (v: BackendChoice) => void;
  probe: TorchReport | null;
  /** The test id of the select; the lines below take it as their prefix. */
  testId?: string;
}

export function BackendPicker({ value, onChange, probe, testId = 'train-backend' }: BackendPickerProps) {
  const id = useId();
  const torchProblem = probe && !probe.ok ? probe.problem : null;
  const gib = (b: number) => `${(b / 1024 ** 3).toFixed(0)} GiB`;
  const jobs = useApp((s) => s.jobs);
  // read again whenever a measurement ends
  const version = Object.values(jobs).filter((j) => j.kind === 'torch-speed' && j.state === 'done').map((j) => j.id).join(',');
  const speeds = useTorchSpeeds(probe?.ok ? version : 'none');
  const speedOf = (d: TorchChoiceDevice | null) => (d ? speeds.measured.find((s) => s.device === d) : undefined);
  return (
    <div className="field">
      <label htmlFor={`${id}-b`}>Backend</label>
      <select id={`${id}-b`} data-testid={testId} value={value} onChange={(e) => onChange(e.target.value as BackendChoice)}>
        {BACKEND_CHOICES.map((c) => {
          const problem = choiceProblem(c, probe);
          const speed = problem ? undefined : speedOf(choiceDevice(c));
          return (
            <option key={c} value={c} disabled={problem !== null} data-testid={`${testId}-${c}`}>
              {LABEL[c]}{problem && c !== 'engine' ? ` (unavailable: ${problem})` : speed ? ` — ${speedRatioText(speed.speedup)} than ${speed.engineBackend} here` : ''}
            </option>
          );
        })}
      </select>
      {probe?.ok && (
        <>
          <p className="small muted" data-testid={`${testId}-torch`}>
            PyTorch {probe.torch} at {probe.executable ?? probe.python}: {[...probe.cuda.map((g) => `${g.name} (${gib(g.memoryBytes)})`), ...(probe.mps ? ['MPS'] : []), `CPU, ${probe.cpuThreads ?? '?'} threads`].join(', ')}
          </p>
          <TorchSpeedLine device={shownDevice(value, probe)} auto={value !== 'engine' && choiceProblem(value, probe) === null} measured={speedOf(shownDevice(value, probe))} problem={speeds.problem} testId={testId} />
        </>
      )}
      {torchProblem && (
        <p className="small muted" data-testid={`${testId}-why`}>
          PyTorch is unavailable: {torchProblem}. {probe?.install}
        </p>
      )}
    </div>
  );
}
