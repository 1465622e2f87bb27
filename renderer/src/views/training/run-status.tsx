// The shown run's controls (state, Pause / Resume / Stop) and its numbers (epoch, best error,
// rate, throughput, ETA, backend, memory).
import { useRef } from 'react';
import type { EpochMetrics, RunSummary } from '../../../../main/api/contract';
import { useApp } from '../../stores/app-store';
import { useTraining } from '../../stores/training-store';
import { formatAdapter } from '../../components/engine-status';
import { formatBytes } from '../../logic/model-draft';
import { runEta, formatSeconds } from '../../logic/run-metrics';

export function RunControls({ run }: { run: RunSummary }) {
  const control = useTraining((s) => s.control);
  const error = useTraining((s) => s.runErrors[run.id]);
  const active = run.state === 'running' || run.state === 'queued';
  return (
    <div>
      <div className="row wrap" role="group" aria-label="Run controls">
        <span data-testid="run-state" className={`state state-${run.state}`}>{run.state}</span>
        {run.state === 'running' && <button data-testid="run-pause" onClick={() => control(run.id, 'pause')}>Pause</button>}
        {(run.state === 'paused' || run.state === 'interrupted' || run.state === 'stopped') && (
          <button data-testid="run-resume" onClick={() => control(run.id, 'resume')}>Resume</button>
        )}
        {(active || run.state === 'paused') && <button data-testid="run-stop" onClick={() => control(run.id, 'stop')}>Stop</button>}
        {run.reason && <span className="muted small" data-testid="run-reason">{run.reason}</span>}
      </div>
      {error && <p className="error-message" role="alert" data-testid="run-error">{error}</p>}
    </div>
  );
}

export function Stats({ run, last, lastLr, epochSeconds }: { run: RunSummary; last: EpochMetrics | undefined; lastLr: number | undefined; epochSeconds: number[] }) {
  const stepEta = useTraining((s) => s.stepEta[run.id]);
  const liveEta = runEta(epochSeconds, last && run.epochs != null ? Math.max(0, run.epochs - last.epoch) : null, stepEta);
  // Paused, the ETA stands still at what it said when the pause showed: records that trail the
  // pause (an epoch that finished meanwhile) do not move it.
  const frozen = useRef<{ id: string; eta: number | null } | null>(null);
  if (run.state !== 'paused') frozen.current = null;
  else if (frozen.current?.id !== run.id) frozen.current = { id: run.id, eta: liveEta };
  const eta = frozen.current ? frozen.current.eta : liveEta;
  const adapter = useApp((s) => s.engine?.backend.adapter);
  const backend = last?.backend ?? run.backend;
  return (
    <dl className="stats" data-testid="run-stats">
      <dt>Epoch</dt>
      <dd data-testid="stat-epoch">{run.epochsDone} / {run.epochs ?? '?'}</dd>
      <dt>Best val relL2 (normalized)</dt>
      <dd data-testid="stat-best">{last ? `${last.bestValRelL2.toPrecision(4)} at epoch ${last.bestEpoch}` : '—'}</dd>
      <dt>Learning rate</dt>
      <dd>{lastLr != null ? lastLr.toExponential(3) : '—'}</dd>
      <dt>Samples / s</dt>
      <dd data-testid="stat-throughput">{last ? last.samplesPerSec.toFixed(1) : '—'}</dd>
      <dt>ETA</dt>
      <dd data-testid="stat-eta">{eta != null && (run.state === 'running' || run.state === 'paused') ? `${formatSeconds(eta)}${run.state === 'paused' ? ' (paused)' : ''}` : '—'}</dd>
      <dt>Backend</dt>
      <dd data-testid="stat-backend">{backend ?? '—'}{backend === 'webgpu' && adapter ? ` on ${formatAdapter(adapter)}` : ''}</dd>
      <dt>Memory</dt>
      <dd data-testid="stat-memory">{last ? `${formatBytes(last.peakRssBytes)} peak RSS, ${formatBytes(last.tfBytes)} tensors` : '—'}</dd>
    </dl>
  );
}

