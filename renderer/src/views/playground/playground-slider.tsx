// A labelled range input with its value beside it (the Playground's editors share it).
import { useId } from 'react';

export function Slider({ label, value, min, max, step, onChange, testId }: { label: string; value: number; min: number; max: number; step: number; onChange(v: number): void; testId: string }) {
  const id = useId();
  return (
    <span className="row">
      <label htmlFor={id}>{label}</label>
      <input id={id} type="range" min={min} max={max} step={step} value={value} data-testid={testId} onChange={(e) => onChange(Number(e.target.value))} />
      <span className="muted small">{value}</span>
    </span>
  );
}
