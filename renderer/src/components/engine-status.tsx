import { useApp } from '../store/app-store';

/** The footer: which host and engine backend run, and a restart button after an engine crash. */
export function EngineStatusBar() {
  const { host, engine, engineStatus, api, refreshEngine, reportError } = useApp();
  const restart = async () => {
    try {
      await api?.call('engine.restart', {});
      await refreshEngine();
    } catch (e) {
      reportError('restarting the engine', e);
    }
  };
  return (
    <footer className="statusbar" aria-label="Engine status">
      <span>Host: {host ? host.kind : '…'}</span>
      <span data-testid="engine-state">Engine: {engineStatus.state}</span>
      {engine && <span data-testid="engine-backend">Backend: {engine.backend.active} (tfjs {engine.tfjs}, pid {engine.pid})</span>}
      {engineStatus.state === 'crashed' && (
        <>
          <span className="warn">{engineStatus.detail}</span>
          <button onClick={restart}>Restart engine</button>
        </>
      )}
    </footer>
  );
}
