// The split of a dataset being prepared from a file: train / validation / test counts and the
// split's seed, checked as typed (blank: the engine's rule, a test split of 10 % included).
import { NumberField, parseNumberText } from './number-field';
import { checkGenerate } from '../logic/generate-params';

export interface SplitTyped { train: string; val: string; test: string; splitSeed: string }
export const BLANK_SPLIT: SplitTyped = { train: '', val: '', test: '', splitSeed: '' };

const asText = (v: number) => (Number.isNaN(v) ? '' : String(v));

/** The same checks as the generate form's; `samples`: the file's sample count when known. */
export function checkSplit(typed: SplitTyped, samples: number | undefined) {
  return checkGenerate('custom', { samples: '', seed: '', resolution: '', ...typed }, samples !== undefined ? { samples } : {});
}

export function SplitFields({ value, onChange, samples }: { value: SplitTyped; onChange(v: SplitTyped): void; samples: number | undefined }) {
  const check = checkSplit(value, samples);
  const set = (k: keyof SplitTyped) => (v: number) => onChange({ ...value, [k]: asText(v) });
  return (
    <fieldset data-testid="import-split">
      <legend>Split{samples !== undefined ? ` of ${samples} samples` : ''}</legend>
      <NumberField label="Train samples" value={parseNumberText(value.train)} onChange={set('train')} min={1} placeholder="80 %" testId="import-train" error={check.problems.train} />
      <NumberField label="Validation samples" value={parseNumberText(value.val)} onChange={set('val')} min={0} placeholder="the rest" testId="import-val" error={check.problems.val} />
      <NumberField label="Test samples" value={parseNumberText(value.test)} onChange={set('test')} min={0} placeholder="10 %" testId="import-test" error={check.problems.test} />
      <NumberField label="Split seed" value={parseNumberText(value.splitSeed)} onChange={set('splitSeed')} min={0} placeholder="42" testId="import-split-seed" error={check.problems.splitSeed} />
      {check.warnings.length > 0 && <ul className="warnings small">{check.warnings.map((w) => <li key={w}>{w}</li>)}</ul>}
    </fieldset>
  );
}
