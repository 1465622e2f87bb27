// ASHA early stopping, the stopping variant (Li et al. 2020; Ray Tune's AsyncHyperBandScheduler):
// a trial reaching a rung records its validation relL2 there; it continues while it is within the
// best 1/eta of the values recorded at that rung so far, else it stops ("pruned"). Asynchronous:
// no trial waits for others, so it works with one trial at a time and with several.
import type { EarlyStopping } from './sweep-config';

/** The rungs (epochs) of a trial of `epochs` epochs: explicit ones below `epochs`, else minEpochs * eta^k < epochs. */
export function ashaRungs(es: EarlyStopping, epochs: number): number[] {
  if (es.rungs) return es.rungs.filter((r) => r < epochs);
  const out: number[] = [];
  for (let r = es.minEpochs; r < epochs; r *= es.eta) out.push(r);
  return out;
}

/**
 * Whether a trial with `value` at a rung continues, given the values recorded there before it.
 * Fewer than minTrialsPerRung recorded (it included): it continues.
 */
export function ashaDecision(value: number, recordedBefore: readonly number[], es: EarlyStopping): 'continue' | 'prune' {
  if (!Number.isFinite(value)) return 'prune';
  const all = [...recordedBefore.filter(Number.isFinite), value].sort((a, b) => a - b);
  if (all.length < es.minTrialsPerRung) return 'continue';
  // the best floor(n / eta) values continue, at least one (Optuna's SuccessiveHalvingPruner: promotable_idx = n // eta - 1, 0 when that is -1)
  const keep = Math.max(1, Math.floor(all.length / es.eta));
  return value <= all[keep - 1]! ? 'continue' : 'prune';
}
