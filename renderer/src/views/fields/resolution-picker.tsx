// Extra grids to evaluate a run at (resolution transfer): suggested coarser/finer grids as
// checkboxes once the training grid is known, or any list typed in.
import { useId } from 'react';
import { parseResolutions, suggestedResolutions } from './sweep-table';

export function ResolutionPicker({ trainingSide, checked, onChecked, text, onText }: {
  trainingSide: number | null;
  checked: number[];
  onChecked(v: number[]): void;
  text: string;
  onText(v: string): void;
}) {
  const id = useId();
  const parsed = parseResolutions(text);
  const toggle = (n: number, on: boolean) => onChecked(on ? [...checked, n].sort((a, b) => a - b) : checked.filter((m) => m !== n));
  return (
    <fieldset className="row wrap" data-testid="fields-resolutions">
      <legend>Resolution transfer: also evaluate at</legend>
      {trainingSide !== null &&
        suggestedResolutions(trainingSide).map((n) => (
          <label key={n}>
            <input type="checkbox" checked={checked.includes(n)} onChange={(e) => toggle(n, e.target.checked)} data-testid={`fields-res-${n}`} /> {n}
          </label>
        ))}
      <label htmlFor={id}>other grid sizes</label>
      <input id={id} type="text" value={text} placeholder="e.g. 21, 43" onChange={(e) => onText(e.target.value)} data-testid="fields-res-text" aria-invalid={!parsed.ok} aria-describedby={parsed.ok ? undefined : `${id}-err`} size={12} />
      {!parsed.ok && <span id={`${id}-err`} className="error-message" role="alert">{parsed.error}</span>}
    </fieldset>
  );
}
