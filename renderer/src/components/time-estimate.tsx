// How long a configuration would train, before it starts: train.calibrate builds its model on the
// backend the run would use, times 3 steps on random data of its shape and answers ms/step,
// steps/epoch, s/epoch and the total. `auto` re-estimates (debounced) when the configuration
// changes; otherwise an "Estimate time" button asks. An older answer never replaces a newer one.
import { useEffect, useRef, useState } from 'react';
import type { Calibration, Params } from '../../../main/api/contract';
import { useApp } from '../stores/app-store';
import { formatMs, formatSeconds } from '../logic/run-metrics';
import { calibrate } from '../queries/run-actions';
import { errorText } from '../api/error-text';

type Config = Params<'train.calibrate'>['config'];

export const ESTIMATE_DEBOUNCE_MS = 400;

export function describeCalibration(c: Calibration): string {
  return `${formatSeconds(c.secondsPerEpoch)} per epoch (${c.stepsPerEpoch} steps × ${formatMs(c.msPerStep)} ms), ${formatSeconds(c.totalSeconds)} for ${c.epochs} epochs on ${c.backend}`;
}

export function TimeEstimate({ config, auto = false }: { config: Config | null; auto?: boolean }) {
  const api = useApp((s) => s.api);
  const [result, setResult] = useState<Calibration | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const seq = useRef(0);
  const key = config ? JSON.stringify(config) : '';
  const estimate = async () => {
    if (!api || !config) return;
    const mine = ++seq.current;
    setBusy(true);
    setError(null);
    try {
      const r = await calibrate(config);
      if (mine === seq.current) setResult(r);
    } catch (e) {
      // A newer estimate cancels this one in the engine: not worth showing.
      if (mine === seq.current) {
        setResult(null);
        setError(errorText(e));
      }
    } finally {
      if (mine === seq.current) setBusy(false);
    }
  };
  useEffect(() => {
    // A changed configuration makes the shown estimate stale.
    setResult(null);
    setError(null);
    if (!auto || !key) return undefined;
    const t = setTimeout(() => void estimate(), ESTIMATE_DEBOUNCE_MS);
    return () => clearTimeout(t);
  }, [key, auto, api]);
  return (
    <div className="row wrap time-estimate" data-testid="time-estimate">
      {!auto && <button type="button" onClick={() => void estimate()} disabled={busy || !config || !api} data-testid="estimate-time">{busy ? 'Estimating…' : 'Estimate time'}</button>}
      <span className="muted small" aria-live="polite" data-testid="time-estimate-text">
        {busy ? 'Timing 3 training steps…' : result ? `Estimated: ${describeCalibration(result)}` : auto && !error ? 'Estimating…' : ''}
      </span>
      {result && <span className="muted small" title={result.note}>(training steps only; validation adds to it)</span>}
      {error && <span className="error-message small" role="alert" data-testid="time-estimate-error">Cannot estimate: {error}</span>}
    </div>
  );
}
