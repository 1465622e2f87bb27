// What the Fields view asks to evaluate (run, extra resolutions, their data's source, sample index),
// as the key and the runs.evaluate parameters of the shared evaluation hook (stores/evaluations.ts).
import type { EvaluateParams } from '../../stores/evaluations';
import type { TransferSource } from '../../../../main/api/contract';

export interface EvalRequest {
  runId: string;
  resolutions: number[];
  /** A sample asked for by index (besides best/median/worst); null: none. */
  index: number | null;
  /** With extra resolutions: solved there by the generator, or resampled from the native grid. */
  source?: TransferSource;
}

export const requestKey = (r: EvalRequest) => `fields|${r.runId}|${r.resolutions.join(',')}|${r.index ?? ''}${r.source ? `|${r.source}` : ''}`;

export const requestParams = (r: EvalRequest): EvaluateParams => ({
  id: r.runId,
  checkpoint: 'best',
  split: 'val',
  fields: true,
  resolutions: r.resolutions,
  indices: r.index === null ? [] : [r.index],
  ...(r.source && r.resolutions.length ? { source: r.source } : {}),
  // the shown sample's error spectrum and physics check, and the split's (docs/diagnostics.md)
  diagnostics: true,
});

/** A saved request (ui-state.json, untrusted) the view can use. */
export function isEvalRequest(v: unknown): v is EvalRequest | null {
  if (v === null) return true;
  if (!v || typeof v !== 'object') return false;
  const r = v as Record<string, unknown>;
  return typeof r.runId === 'string' && Array.isArray(r.resolutions) && r.resolutions.length <= 8 && r.resolutions.every((x) => Number.isInteger(x)) && (r.index === null || Number.isInteger(r.index)) && (r.source === undefined || r.source === 'solved' || r.source === 'resampled');
}
