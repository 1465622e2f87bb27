// LiNO's block choices that are not numbers: the scattering variant and the light components (at
// least one stays on; a refused toggle says why).
import { useState } from 'react';
import { COMPONENT_NAMES, enabledComponents, toggleComponent, type ModelDraft } from '../../logic/model-draft';

export function LinoBlockControls({ draft, set, error }: { draft: ModelDraft; set(d: ModelDraft): void; error?: string }) {
  const [lastRefused, setLastRefused] = useState<string | null>(null);
  const on = enabledComponents(draft);
  return (
    <>
      <div className="field" role="radiogroup" aria-label="Scattering">
        <span className="label">Scattering</span>
        {(['efficient', 'full'] as const).map((k) => (
          <label key={k} className="inline">
            <input type="radio" name="scattering" value={k} checked={draft.scattering === k} onChange={() => set({ ...draft, scattering: k })} /> {k}
          </label>
        ))}
      </div>
      <div className="field" role="group" aria-label="Light components" aria-describedby="components-msg">
        <span className="label">Components</span>
        {COMPONENT_NAMES.map((c) => (
          <label key={c} className="inline">
            <input
              type="checkbox"
              checked={draft.components[c]}
              data-testid={`toggle-${c}`}
              onChange={() => {
                const next = toggleComponent(draft, c);
                setLastRefused(next === draft ? `${c} is the last component on; at least one must stay on` : null);
                set(next);
              }}
            />{' '}
            {c}
          </label>
        ))}
        <span id="components-msg" className={lastRefused || error ? 'warn field-msg' : 'muted field-msg'} data-testid="components-msg" aria-live="polite">
          {lastRefused ?? error ?? `${on.length} of 3 on`}
        </span>
      </div>
    </>
  );
}
