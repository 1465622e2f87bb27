// One number of the model draft as the shared NumberField: a kind's declared field (label, symbol,
// limits, hint) or one of the draft's own (grid, batch). testid field-NAME.
import { NumberField } from '../../components/number-field';
import type { ModelFieldDescriptor } from '../../../../main/api/contract';
import type { ModelDraft } from '../../logic/model-draft';

export function DraftNumber({ descriptor, draft, set, error }: { descriptor: ModelFieldDescriptor; draft: ModelDraft; set(d: ModelDraft): void; error?: string }) {
  const { field, label, symbol, min, max, hint } = descriptor;
  const key = field as keyof ModelDraft;
  return (
    <NumberField
      label={symbol ? `${label} ${symbol}` : label}
      value={draft[key] as number}
      onChange={(v) => set({ ...draft, [key]: v })}
      min={min}
      max={max}
      error={error}
      hint={hint}
      testId={`field-${field}`}
    />
  );
}
