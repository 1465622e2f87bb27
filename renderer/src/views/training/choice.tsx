import { useId } from 'react';

/** A labelled two/three-way choice drawn as a segmented radio group (persisted by the caller). */
export function Choice<T extends string>({ label, value, options, onChange, testId }: { label: string; value: T; options: [T, string][]; onChange: (v: T) => void; testId: string }) {
  const name = useId();
  return (
    <fieldset className="row choice" data-testid={testId}>
      <legend className="small">{label}</legend>
      {options.map(([v, text]) => (
        <label key={v} className="small">
          <input type="radio" name={name} value={v} checked={value === v} onChange={() => onChange(v)} /> {text}
        </label>
      ))}
    </fieldset>
  );
}

