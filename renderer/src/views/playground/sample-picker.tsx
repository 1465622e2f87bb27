// A dataset sample as the Playground's input: the run's val or test split and an index;
// its stored truth is shown as the truth, and the solver's truth can be compared with it.
import { useId, useState } from 'react';
import { NumberField } from '../../components/number-field';
import { usePlaygroundKeep } from '../../stores/playground-keep';
import { usePlayground } from '../../stores/playground';

export function SamplePicker() {
  const k = usePlaygroundKeep();
  const version = usePlayground((s) => s.version);
  const [split, setSplit] = useState<'val' | 'test'>('val');
  const [index, setIndex] = useState(0);
  const id = useId();
  const shown = k.sample && k.sample.version === version ? k.sample : null;
  return (
    <div className="row" data-testid="playground-sample-picker">
      <label htmlFor={id}>Dataset sample</label>
      <select id={id} value={split} data-testid="playground-sample-split" onChange={(e) => setSplit(e.target.value as 'val' | 'test')}>
        <option value="val">validation</option>
        <option value="test">test</option>
      </select>
      <NumberField label="Index" inline value={index} min={0} max={k.sample ? k.sample.count - 1 : undefined} onChange={(v) => setIndex(Math.max(0, Math.floor(v) || 0))} testId="playground-sample-index" />
      <button type="button" data-testid="playground-sample-use" onClick={() => void k.pickSample(split, index)}>Use this sample</button>
      {shown && (
        <>
          <span className="muted small" data-testid="playground-sample-shown">{`${shown.split} sample ${shown.index} of ${shown.count}: the truth shown is the stored one`}</span>
          <button type="button" data-testid="playground-sample-compare" disabled={k.comparing} onClick={() => void k.compareSolver()}>{k.comparing ? 'Solving…' : 'Compare with the solver'}</button>
          {k.solverVsStored && <span className="small" data-testid="playground-solver-vs-stored">{`Solver vs stored truth: relL2 ${k.solverVsStored.relL2.toPrecision(3)} (${k.solverVsStored.solver})`}</span>}
        </>
      )}
    </div>
  );
}
