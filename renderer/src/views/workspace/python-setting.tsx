// The Workspace view's PyTorch card: which Python the 'torch' backend runs (a setting kept with the
// user's settings; LINO_PYTHON wins over it), what the engine's probe found there, and a field to
// point it at another interpreter (probed again on Save).
import { useEffect, useId, useState } from 'react';
import type { TorchReport } from '../../../../main/api/contract';
import { savePythonSetting, usePythonSetting, useTorchProbe } from '../../queries/torch-probe';
import { errorText } from '../../api/error-text';

function describe(r: TorchReport): string {
  if (!r.ok) return `not available: ${r.problem}. ${r.install ?? ''}`;
  const devices = [...r.cuda.map((g) => `${g.name} (${(g.memoryBytes / 1024 ** 3).toFixed(0)} GiB)`), ...(r.mps ? ['MPS'] : []), `CPU, ${r.cpuThreads ?? '?'} threads`];
  return `PyTorch ${r.torch} at ${r.executable ?? r.python}: ${devices.join(', ')}`;
}

export function PythonSetting({ initial }: { initial: TorchReport | undefined }) {
  const id = useId();
  const setting = usePythonSetting().value;
  const fetched = useTorchProbe().value;
  const [saved, setProbe] = useState<TorchReport | undefined>(undefined);
  const probe = saved ?? fetched ?? initial;
  const [text, setText] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    if (setting) setText(setting.python ?? '');
  }, [setting?.python]);
  const save = async (value: string | null) => {
    setBusy(true);
    setError(null);
    try {
      setProbe(await savePythonSetting(value));
    } catch (e) {
      setError(errorText(e));
    } finally {
      setBusy(false);
    }
  };
  return (
    <div className="card" role="group" aria-labelledby={`${id}-t`}>
      <h2 id={`${id}-t`}>PyTorch</h2>
      <p className="small" data-testid="workspace-torch">{probe ? describe(probe) : 'looking for PyTorch…'}</p>
      {setting?.envOverride && <p className="small muted">LINO_PYTHON is set ({setting.envOverride}): it is used instead of this setting.</p>}
      <div className="field">
        <label htmlFor={`${id}-py`}>Python interpreter (default: python3 on PATH)</label>
        <input id={`${id}-py`} data-testid="python-path" value={text} placeholder="python3" onChange={(e) => setText(e.target.value)} />
      </div>
      <div className="row">
        <button data-testid="python-save" disabled={busy} onClick={() => void save(text.trim() || null)}>{busy ? 'Checking…' : 'Save and check'}</button>
      </div>
      {error && <p className="error-message" role="alert">{error}</p>}
    </div>
  );
}
