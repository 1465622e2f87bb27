// The one labelled number input: a label tied to the input, the text the user types kept as typed
// (so "1." or an empty box is not snapped back mid-edit), an error or hint below it announced to
// screen readers, and outside changes to the value followed.
import { useEffect, useId, useState, type CSSProperties } from 'react';

export interface NumberFieldProps {
  label: string;
  /** The current value (NaN when the box is empty or not a number). */
  value: number;
  /** Called with the parsed value on every edit: NaN for an empty box or text that is not a number. */
  onChange(value: number): void;
  min?: number;
  max?: number;
  /** 'any' for a real number (a learning rate); whole steps by default. */
  step?: number | 'any';
  error?: string | null;
  hint?: string | null;
  /** The input's data-testid; its hint is `<testId>-hint`. */
  testId?: string;
  placeholder?: string;
  /** Width of the input (for example '5em'); the field's own layout otherwise. */
  width?: string;
  /** Label and input on one line (toolbars), instead of the stacked form field. */
  inline?: boolean;
  disabled?: boolean;
  /** Called when Enter is pressed in the box (a toolbar's "Show" action). */
  onEnter?(): void;
  /** The error is announced at once (role="alert"), for an error that answers an action. */
  alert?: boolean;
}

/** Parses a number box's text: '' and non-numbers are NaN (the caller's validation names them). */
export function parseNumberText(text: string): number {
  return text.trim() === '' ? Number.NaN : Number(text);
}

export function NumberField({ label, value, onChange, min, max, step = 1, error, hint, testId, placeholder, width, inline, disabled, onEnter, alert }: NumberFieldProps) {
  const id = useId();
  const [text, setText] = useState(Number.isFinite(value) ? String(value) : '');
  useEffect(() => {
    // Follow outside changes (another view, a reset) without fighting the user's typing.
    if (!Object.is(parseNumberText(text), value) && !(Number.isNaN(value) && Number.isNaN(parseNumberText(text)))) setText(Number.isFinite(value) ? String(value) : '');
  }, [value]);
  const describedBy = error ? `${id}-err` : hint ? `${id}-hint` : undefined;
  const style: CSSProperties | undefined = width ? { width } : undefined;
  return (
    <div className={inline ? 'field field-inline' : 'field'}>
      <label htmlFor={id}>{label}</label>
      <input
        id={id}
        type="number"
        min={min}
        max={max}
        step={step}
        value={text}
        placeholder={placeholder}
        disabled={disabled}
        style={style}
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy}
        data-testid={testId}
        onChange={(e) => {
          setText(e.target.value);
          onChange(parseNumberText(e.target.value));
        }}
        onKeyDown={onEnter ? (e) => e.key === 'Enter' && onEnter() : undefined}
      />
      {error ? <span id={`${id}-err`} className="error-message field-msg" role={alert ? 'alert' : undefined} data-testid={testId ? `${testId}-error` : undefined}>{error}</span> : hint ? <span id={`${id}-hint`} className="muted field-msg" data-testid={testId ? `${testId}-hint` : undefined}>{hint}</span> : null}
    </div>
  );
}
