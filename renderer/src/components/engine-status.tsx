import { useApp } from '../stores/app-store';
import type { BackendReport } from '../../../main/api/contract';

/** The webgpu adapter in one line: "nvidia hopper (NVIDIA H200), hardware". */
export function formatAdapter(a: NonNullable<BackendReport['adapter']>): string {
  const name = [a.vendor, a.architecture, a.device].filter(Boolean).join(' ') || 'unnamed adapter';
  return `${name}${a.description ? ` (${a.description})` : ''}, ${a.fallback ? 'software fallback' : 'hardware'}`;
}

/** The footer: which host and engine backend run, and a restart button after an engine crash. */
export function EngineStatusBar() {
  const { host, engine, engineStatus, restartEngine } = useApp();
  const restart = () => void restartEngine();
  return (
    <footer className="statusbar" aria-label="Engine status">
      <span>Host: {host ? host.kind : '…'}</span>
      <span data-testid="engine-state">Engine: {engineStatus.state}</span>
      {engine && <span data-testid="engine-backend">Backend: {engine.backend.active} (tfjs {engine.tfjs}, pid {engine.pid})</span>}
      {engine?.backend.adapter && <span data-testid="engine-adapter">GPU: {formatAdapter(engine.backend.adapter)}</span>}
      {engineStatus.state === 'crashed' && (
        <>
          <span className="warn">{engineStatus.detail}</span>
          <button onClick={restart}>Restart engine</button>
        </>
      )}
    </footer>
  );
}
