// The import dialog's PDEBench choices: per-sample groups as samples, the axis order of an HDF5
// file written in MATLAB order, and a time split (operator t0 -> t1 or autoregressive T_in -> T_out)
// on a named axis. The engine checks every number against the file and says what it read as what.
import type { Params } from '../../../main/api/contract';
import { NumberField } from './number-field';

export type Layout = NonNullable<Params<'datasets.import'>['layout']>;
type Mode = 'none' | 'operator' | 'autoregressive';

const num = (v: number, fallback: number) => (Number.isFinite(v) ? Math.max(0, Math.floor(v)) : fallback);

export function ImportLayout(p: { format: string; groupCount: number; hints: string[]; layout: Layout; onChange: (l: Layout) => void; allTargets: boolean; onAllTargets: (v: boolean) => void }) {
  const { layout, onChange } = p;
  const t = layout.time;
  const mode: Mode = t?.mode ?? 'none';
  const axis = t?.axis ?? 1;
  const setMode = (m: Mode) => {
    const { time: _drop, ...rest } = layout;
    if (m === 'none') return onChange(rest);
    onChange({ ...rest, time: m === 'operator' ? { axis, mode: m, t0: 0, t1: 1 } : { axis, mode: m, tIn: 10, tOut: 10 } });
  };
  const setTime = (k: string, v: number) => t && onChange({ ...layout, time: { ...t, [k]: num(v, k === 'axis' ? 1 : 0) } as Layout['time'] });
  const field = (k: string, label: string, value: number) => (
    <NumberField key={k} label={label} inline min={k === 'axis' ? 1 : 0} value={value} width="5em" onChange={(v) => setTime(k, v)} />
  );
  return (
    <div data-testid="import-layout">
      {p.hints.length > 0 && (
        <ul className="muted" data-testid="layout-hints">
          {p.hints.map((h) => <li key={h}>{h}</li>)}
        </ul>
      )}
      <div className="row">
        {p.groupCount > 0 && (
          <label>
            <input type="checkbox" checked={!!layout.groups} onChange={(e) => onChange({ ...layout, groups: e.target.checked || undefined })} /> Read the {p.groupCount} groups as samples
          </label>
        )}
        {p.format === 'hdf5' && (
          <label>
            Axis order{' '}
            <select value={layout.axisOrder ?? 'stored'} onChange={(e) => onChange({ ...layout, axisOrder: e.target.value as 'stored' | 'reversed' })}>
              <option value="stored">as stored (h5py, PDEBench)</option>
              <option value="reversed">reversed (MATLAB order)</option>
            </select>
          </label>
        )}
        <label>
          Time split{' '}
          <select value={mode} onChange={(e) => setMode(e.target.value as Mode)} aria-label="time split">
            <option value="none">none (samples are independent)</option>
            <option value="operator">operator: t = t0 → t = t1</option>
            <option value="autoregressive">autoregressive: T_in → T_out</option>
          </select>
        </label>
        {t && field('axis', 'time axis', axis)}
        {t?.mode === 'operator' && [field('t0', 't0', t.t0), field('t1', 't1', t.t1)]}
        {t?.mode === 'operator' && (
          <label>
            <input type="checkbox" checked={p.allTargets} onChange={(e) => p.onAllTargets(e.target.checked)} /> every input is a target too (variables as output channels)
          </label>
        )}
        {t?.mode === 'autoregressive' && [field('tIn', 'T_in', t.tIn), field('tOut', 'T_out', t.tOut)]}
      </div>
    </div>
  );
}
