import { useState } from 'react';
import { useApp } from '../../stores/app-store';
import { pickOpen } from '../../queries/files';
import { formatAdapter } from '../../components/engine-status';
import { FileBrowser } from '../../components/file-browser';
import { QuickStartCard } from '../../components/quick-start';
import { PythonSetting } from './python-setting';
import { RelL2Setting } from './rell2-setting';

/** The home view: where the workspace is, what it holds, and a check that the engine computes. */
export function WorkspaceView() {
  const { workspace, host, api, jobs, engine, reportError, openWorkspace, startSelfTest, cancelJob } = useApp();
  const [browsing, setBrowsing] = useState(false);

  const switchWorkspace = async () => {
    if (!api) return;
    try {
      if (host?.nativeDialogs) {
        const picked = await pickOpen(true, 'Choose a workspace folder');
        if (picked) await openWorkspace(picked.ref);
      } else {
        setBrowsing(true);
      }
    } catch (e) {
      reportError('opening a workspace', e);
    }
  };

  const selfTest = () => void startSelfTest();

  const jobList = Object.values(jobs).sort((a, b) => (a.startedAt ?? '').localeCompare(b.startedAt ?? ''));
  return (
    <section aria-labelledby="ws-title">
      <h1 id="ws-title">Workspace</h1>
      <p>
        Folder: <code data-testid="workspace-path">{workspace?.path ?? '…'}</code>{' '}
        <button onClick={switchWorkspace}>Open another workspace…</button>
      </p>
      {browsing && (
        <FileBrowser
          title="Choose a workspace folder"
          directory
          onCancel={() => setBrowsing(false)}
          onPick={(e) => {
            setBrowsing(false);
            void openWorkspace(e.ref);
          }}
        />
      )}
      {workspace && workspace.runs.length === 0 && <QuickStartCard />}
      <div className="cards">
        <div className="card">
          <h2>Datasets</h2>
          {workspace && workspace.datasets.length === 0 ? <p data-testid="no-datasets">No datasets yet.</p> : (
            <ul>{workspace?.datasets.map((d) => <li key={d.id}>{d.name}</li>)}</ul>
          )}
        </div>
        <div className="card">
          <h2>Runs</h2>
          {workspace && workspace.runs.length === 0 ? <p data-testid="no-runs">No runs yet.</p> : (
            <ul>{workspace?.runs.map((r) => <li key={r.id}>{r.name} — {r.status}</li>)}</ul>
          )}
        </div>
        <div className="card">
          <h2>Engine</h2>
          {engine && <p data-testid="workspace-backend">Backend: {engine.backend.active}{engine.backend.adapter ? ` on ${formatAdapter(engine.backend.adapter)}` : ''}</p>}
          <p>Runs a short tensor computation in the engine process.</p>
          <button onClick={selfTest} data-testid="selftest">Run engine self-test</button>
          <ul className="jobs">
            {jobList.map((j) => (
              <li key={j.id} data-testid={`job-${j.state}`}>
                {j.label}: {j.state} {j.state === 'running' && `${Math.round(j.progress * 100)}%${j.etaSeconds != null ? `, ETA ${j.etaSeconds.toFixed(0)} s` : ''}`}
                {j.state === 'running' && <button className="link" onClick={() => void cancelJob(j.id)}>Cancel</button>}
                {j.kind === 'selftest' && j.state === 'done' && j.result != null && (
                  <span data-testid="selftest-result"> — {(j.result as { backend: string }).backend}, λ = {(j.result as { rayleighQuotient: number }).rayleighQuotient.toFixed(4)}</span>
                )}
                {j.error && <span className="error-message"> {j.error}</span>}
              </li>
            ))}
          </ul>
        </div>
        <RelL2Setting />
        <PythonSetting initial={engine?.torch} />
      </div>
    </section>
  );
}
