// What the Fields view asks to evaluate (run, extra resolutions, sample index), as the key and
// the runs.evaluate parameters of the shared evaluation hook (store/evaluations.ts).
import type { EvaluateParams } from '../../store/evaluations';

export interface EvalRequest {
  runId: string;
  resolutions: number[];
  /** A sample asked for by index (besides best/median/worst); null: none. */
  index: number | null;
}

export const requestKey = (r: EvalRequest) => `fields|${r.runId}|${r.resolutions.join(',')}|${r.index ?? ''}`;

export const requestParams = (r: EvalRequest): EvaluateParams => ({
  id: r.runId,
  checkpoint: 'best',
  split: 'val',
  fields: true,
  resolutions: r.resolutions,
  indices: r.index === null ? [] : [r.index],
});
