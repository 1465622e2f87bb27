// Which validation sample to show: best / median / worst by error, or any index (evaluated on demand).
import { useId } from 'react';
import { NumberField, parseNumberText } from '../../components/number-field';

export type Which = 'best' | 'median' | 'worst' | 'index';

export function SamplePicker({ which, onWhich, index, onIndex, count, onShowIndex, busy, error }: {
  which: Which;
  onWhich(w: Which): void;
  index: string;
  onIndex(v: string): void;
  /** Samples in the split, once known. */
  count: number | null;
  onShowIndex(): void;
  busy: boolean;
  /** The engine's answer to a bad index. */
  error: string | null;
}) {
  const id = useId();
  return (
    <div className="row wrap">
      <label htmlFor={id}>Sample</label>
      <select id={id} value={which} onChange={(e) => onWhich(e.target.value as Which)} data-testid="fields-which">
        {(['best', 'median', 'worst'] as const).map((w) => <option key={w} value={w}>{w}</option>)}
        <option value="index">by index</option>
      </select>
      <NumberField
        label={`Index${count !== null ? ` (0–${count - 1})` : ''}`}
        inline
        value={parseNumberText(index)}
        onChange={(v) => {
          onIndex(Number.isNaN(v) ? '' : String(v));
          onWhich('index');
        }}
        onEnter={onShowIndex}
        min={0}
        width="6em"
        error={error}
        alert
        testId="fields-index"
      />
      <button onClick={onShowIndex} disabled={busy || !/^\d+$/.test(index)} data-testid="fields-index-show">Show sample {/^\d+$/.test(index) ? index : ''}</button>
    </div>
  );
}
