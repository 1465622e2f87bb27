import { useId, useMemo, useState } from 'react';
import { useApp } from '../stores/app-store';
import { useTraining } from '../stores/training-store';
import { TimeEstimate } from './time-estimate';
import { errorText } from '../api/error-text';

/**
 * First start: one click generates a Darcy set and trains a small LiNO on it, landing on the
 * Training view with curves arriving. "fast" (the default) uses the tiny preset (seconds).
 * "quick" is sized for a 2-core CPU on wasm: about 2 minutes of CPU (126 s measured with its 360 training samples;
 * 10 min wall at load average 12-19) to a validation relL2 of 0.22 (normalized; 1.0 untrained), in docs/training.md. It overrides the quick dataset
 * preset's size (1024 samples at 85x85, which the generator docs and benchmarks keep). Both keep
 * a test split (10 %), so the run's Test relL2 is filled in; fast keeps two validation samples so
 * the Fields view's best, median and worst differ.
 */
export const QUICK_START = {
  fast: { preset: 'tiny', samples: undefined, generateResolution: undefined, split: { train: 3, val: 2, test: 1 }, width: 8, depth: 2, epochs: 3, batchSize: 2, label: 'Fast: 6 Darcy samples at 29×29, LiNO M=8 L=2, 3 epochs (seconds)' },
  quick: { preset: 'quick', samples: 500, generateResolution: 29, split: { test: 50 }, width: 16, depth: 2, epochs: 20, batchSize: 4, label: 'Quick: 500 Darcy samples at 29×29, LiNO M=16 L=2, 20 epochs (about 2 min on 2 shared cores)' },
} as const;

/** The run configuration a quick-start choice trains. */
export function quickStartConfig(choice: keyof typeof QUICK_START) {
  const q = QUICK_START[choice];
  return {
    name: `Quick start: Darcy ${q.preset}`,
    data: { kind: 'generate' as const, benchmark: 'darcy' as const, preset: q.preset, ...q.split, ...(q.samples !== undefined ? { samples: q.samples, generateResolution: q.generateResolution } : {}) },
    model: { kind: 'lino' as const, width: q.width, depth: q.depth, scattering: 'efficient' as const, components: ['reflection' as const, 'refraction' as const, 'scattering' as const] },
    epochs: q.epochs,
    batchSize: q.batchSize,
  };
}

export function QuickStartCard() {
  const start = useTraining((s) => s.start);
  const setView = useApp((s) => s.setView);
  // The shortest by default: a first click should answer in seconds, not hours.
  const [choice, setChoice] = useState<keyof typeof QUICK_START>('fast');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const id = useId();
  const config = useMemo(() => quickStartConfig(choice), [choice]);
  const go = async () => {
    setBusy(true);
    setError(null);
    try {
      await start({ config, seeds: 1 });
      setView('training');
    } catch (e) {
      setError(errorText(e));
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
      <TimeEstimate config={config} auto />
      <button onClick={go} disabled={busy} data-testid="quick-start-go">{busy ? 'Starting…' : 'Generate and train'}</button>
      {error && <p className="error-message" role="alert">Could not start: {error}</p>}
    </div>
  );
}
