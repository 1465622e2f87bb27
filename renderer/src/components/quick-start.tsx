import { useId, useState } from 'react';
import { useApp } from '../store/app-store';
import { useTraining } from '../store/training-store';

/**
 * First start: one click generates a Darcy set and trains a small LiNO on it, landing on the
 * Training view with curves arriving. "fast" (the default) uses the tiny preset (seconds).
 */
export const QUICK_START = {
  fast: { preset: 'tiny', width: 8, depth: 2, epochs: 3, batchSize: 2, label: 'Fast: 6 Darcy samples at 29×29, LiNO M=8 L=2, 3 epochs (seconds)' },
  quick: { preset: 'quick', width: 32, depth: 4, epochs: 100, batchSize: 4, label: 'Quick: 1024 Darcy samples at 85×85, LiNO M=32 L=4, 100 epochs' },
} as const;

export function QuickStartCard() {
  const start = useTraining((s) => s.start);
  const setView = useApp((s) => s.setView);
  // The shortest by default: a first click should answer in seconds, not hours.
  const [choice, setChoice] = useState<keyof typeof QUICK_START>('fast');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const id = useId();
  const go = async () => {
    const q = QUICK_START[choice];
    setBusy(true);
    setError(null);
    try {
      await start({
        config: {
          name: `Quick start: Darcy ${q.preset}`,
          data: { kind: 'generate', benchmark: 'darcy', preset: q.preset },
          model: { kind: 'lino', width: q.width, depth: q.depth, scattering: 'efficient', components: ['reflection', 'refraction', 'scattering'] },
          epochs: q.epochs,
          batchSize: q.batchSize,
        },
        seeds: 1,
      });
      setView('training');
    } catch (e) {
      setError(e instanceof Error ? e.message : String(e));
    } finally {
      setBusy(false);
    }
  };
  return (
    <div className="card quick-start" data-testid="quick-start" role="group" aria-labelledby={`${id}-t`}>
      <h2 id={`${id}-t`}>Quick start</h2>
      <p>New here? Generate a Darcy flow benchmark and train a small LiNO on it in one click; the Training view shows the curves as they arrive.</p>
      <fieldset>
        <legend>Size</legend>
        {(Object.keys(QUICK_START) as (keyof typeof QUICK_START)[]).map((k) => (
          <label key={k} className="inline" style={{ display: 'flex' }}>
            <input type="radio" name={`${id}-size`} value={k} checked={choice === k} onChange={() => setChoice(k)} data-testid={`quick-${k}`} /> {QUICK_START[k].label}
          </label>
        ))}
      </fieldset>
      <button onClick={go} disabled={busy} data-testid="quick-start-go">{busy ? 'Starting…' : 'Generate and train'}</button>
      {error && <p className="error-message" role="alert">Could not start: {error}</p>}
    </div>
  );
}
