// Sweeps: define one (its sweep.json), start it, and follow the sweeps of the workspace; the chosen
// sweep's detail re-reads every second while it runs (reads in store/sweeps.ts).
import { useCallback, useState } from 'react';
import { usePersisted } from '../../store/persisted-state';
import { SWEEP_TEMPLATE, startSweep, useSweepDetail, useSweepList, useTicker } from '../../store/sweeps';
import { SweepDetail } from './sweep-detail';

export function SweepsView() {
  const [text, setText] = usePersisted<string>('sweeps.text', SWEEP_TEMPLATE, (v) => typeof v === 'string' && v.length <= 8000);
  const [chosen, setChosen] = usePersisted<string | null>('sweeps.chosen', null, (v) => v === null || (typeof v === 'string' && v.length <= 128));
  const [error, setError] = useState<string | null>(null);
  const [bump, setBump] = useState(0);
  const listTick = useTicker(2000, true);
  const { sweeps, error: listError } = useSweepList(listTick + bump);
  const { detail, error: detailError } = useSweepDetail(chosen, sweeps?.find((s) => s.id === chosen) ?? null, bump);
  const changed = useCallback(() => setBump((b) => b + 1), []);
  const start = async () => {
    const r = await startSweep(text);
    if ('error' in r) setError(r.error);
    else {
      setError(null);
      setChosen(r.id);
      setBump((b) => b + 1);
    }
  };
  return (
    <section aria-labelledby="sweeps-title">
      <h1 id="sweeps-title">Sweeps</h1>
      <div className="card">
        <label htmlFor="sweep-json">sweep.json (base configuration, axes, method, seeds, budget, early stopping)</label>
        <textarea id="sweep-json" data-testid="sweep-json" rows={14} cols={90} spellCheck={false} value={text} onChange={(e) => setText(e.target.value.slice(0, 8000))} />
        <div>
          <button onClick={() => setText(SWEEP_TEMPLATE)}>Use the example</button>
          <button data-testid="sweep-start" onClick={start}>Start sweep</button>
        </div>
        {error && <p role="alert" className="error-message" data-testid="sweep-error">{error}</p>}
      </div>
      {listError && <p role="alert" className="error-message">{listError}</p>}
      <fieldset className="card" data-testid="sweep-list">
        <legend>Sweeps in this workspace</legend>
        {sweeps?.length === 0 && <p className="muted">No sweep yet.</p>}
        {sweeps?.map((s) => (
          <label key={s.id}>
            <input type="radio" name="sweep" checked={chosen === s.id} onChange={() => setChosen(s.id)} />
            {` ${s.name} (${s.id}): ${s.status}, ${s.ended}/${s.trials} trials${s.best !== null ? `, best ${s.best.toExponential(3)}` : ''}`}
          </label>
        ))}
      </fieldset>
      {detailError && <p role="alert" className="error-message">{detailError}</p>}
      {detail && <SweepDetail detail={detail} onChanged={changed} />}
    </section>
  );
}
