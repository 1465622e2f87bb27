// Sweeps: define one with the form or as its sweep.json (the JSON tab), start it, and follow the
// sweeps of the workspace; the chosen sweep's detail re-reads every second while it runs (reads in
// queries/sweeps.ts). The list and the detail show one summary of the chosen sweep, so they agree.
import { useCallback, useState } from 'react';
import { usePersisted } from '../../stores/persisted-state';
import { SWEEP_TEMPLATE, startSweep, useSweepDetail, useSweepList, useTicker } from '../../queries/sweeps';
import { defaultSweepForm, formToConfig, trialCount, type SweepForm } from '../../logic/sweep-form';
import { errorText } from '../../api/error-text';
import { SweepDetail } from './sweep-detail';
import { SweepFormCard } from './sweep-form';

const isForm = (v: unknown): v is SweepForm => !!v && typeof v === 'object' && Array.isArray((v as SweepForm).axes) && typeof (v as SweepForm).kind === 'string' && JSON.stringify(v).length <= 8000;

export function SweepsView() {
  const [text, setText] = usePersisted<string>('sweeps.text', SWEEP_TEMPLATE, (v) => typeof v === 'string' && v.length <= 8000);
  const [form, setForm] = usePersisted<SweepForm>('sweeps.form', defaultSweepForm(), isForm);
  const [tab, setTab] = usePersisted<'form' | 'json'>('sweeps.tab', 'form', (v) => v === 'form' || v === 'json');
  const [chosen, setChosen] = usePersisted<string | null>('sweeps.chosen', null, (v) => v === null || (typeof v === 'string' && v.length <= 128));
  const [error, setError] = useState<string | null>(null);
  const [bump, setBump] = useState(0);
  const listTick = useTicker(2000, true);
  const { sweeps, error: listError } = useSweepList(listTick + bump);
  const { detail, error: detailError } = useSweepDetail(chosen, sweeps?.find((s) => s.id === chosen) ?? null, bump);
  const changed = useCallback(() => setBump((b) => b + 1), []);
  const fromForm = (): string | null => {
    try {
      return JSON.stringify(formToConfig(form), null, 2);
    } catch (e) {
      setError(errorText(e));
      return null;
    }
  };
  const start = async () => {
    const json = tab === 'form' ? fromForm() : text;
    if (json === null) return;
    const r = await startSweep(json);
    if ('error' in r) setError(r.error);
    else {
      setError(null);
      setChosen(r.id);
      setBump((b) => b + 1);
    }
  };
  const showJson = () => {
    const json = fromForm();
    if (json === null) return;
    setError(null);
    setText(json);
    setTab('json');
  };
  return (
    <section aria-labelledby="sweeps-title">
      <h1 id="sweeps-title">Sweeps</h1>
      <div className="card">
        <div role="tablist" aria-label="Define the sweep" className="tab-row">
          <button role="tab" aria-selected={tab === 'form'} className={tab === 'form' ? 'nav active' : 'nav'} onClick={() => setTab('form')}>Form</button>
          <button role="tab" aria-selected={tab === 'json'} className={tab === 'json' ? 'nav active' : 'nav'} onClick={() => setTab('json')}>sweep.json</button>
        </div>
        {tab === 'form' ? (
          <>
            <SweepFormCard form={form} onChange={setForm} />
            <div><button onClick={showJson}>Show as sweep.json</button></div>
          </>
        ) : (
          <>
            <label htmlFor="sweep-json">sweep.json (base configuration, axes, method, seeds, budget, early stopping)</label>
            <textarea id="sweep-json" data-testid="sweep-json" rows={14} cols={90} spellCheck={false} value={text} onChange={(e) => setText(e.target.value.slice(0, 8000))} />
            <div><button onClick={() => setText(SWEEP_TEMPLATE)}>Use the example</button></div>
          </>
        )}
        <div>
          <button data-testid="sweep-start" onClick={start}>Start sweep</button>
        </div>
        {error && <p role="alert" className="error-message" data-testid="sweep-error">{error}</p>}
      </div>
      {listError && <p role="alert" className="error-message">{listError}</p>}
      <fieldset className="card sweep-list" data-testid="sweep-list">
        <legend>Sweeps in this workspace</legend>
        {sweeps?.length === 0 && <p className="muted">No sweep yet.</p>}
        {sweeps?.map((listed) => {
          // the chosen sweep's line is the detail's summary (re-read each second) when it has one
          const s = detail && detail.summary.id === listed.id ? detail.summary : listed;
          return (
            <label key={s.id}>
              <input type="radio" name="sweep" checked={chosen === s.id} onChange={() => setChosen(s.id)} />
              {` ${s.name} (${s.id}): ${s.status}, ${trialCount(s, 'trials ended')}${s.best !== null ? `, best val relL2 ${s.best.toExponential(3)} (normalized)` : ''}`}
            </label>
          );
        })}
      </fieldset>
      {detailError && <p role="alert" className="error-message">{detailError}</p>}
      {detail && <SweepDetail detail={detail} onChanged={changed} />}
    </section>
  );
}
