// Which data the Fields view evaluates other grids on: solved there by the generator (the default
// where the run's data came from the workbench's generator) or resampled from the native grid (the
// only choice for imported files, with the reason shown), and the caption that says which was done.
import { whyNotSolvedSpec, type EvaluationResult, type TransferSource, type WorkspaceSummary } from '../../../../main/api/contract';

export type SolvedChoice = { ok: true } | { ok: false; why: string };

/** Whether the run's data (its config's data spec) can be solved at another grid; why not otherwise. */
export function solvedChoice(config: Record<string, unknown> | undefined, workspace: WorkspaceSummary | null): SolvedChoice {
  const data = (config?.data ?? {}) as { kind?: unknown; id?: unknown; benchmark?: unknown; path?: unknown };
  if (data.kind === 'dataset') {
    const d = workspace?.datasets.find((x) => x.id === data.id);
    if (!d) return { ok: false, why: `the run's dataset ${String(data.id)} is not in this workspace` };
    return d.notSolvable ? { ok: false, why: d.notSolvable } : { ok: true };
  }
  const why = whyNotSolvedSpec(data);
  return why ? { ok: false, why } : { ok: true };
}

/** The source asked for: the user's choice where solving is possible, resampled where it is not. */
export const effectiveSource = (chosen: TransferSource, choice: SolvedChoice): TransferSource => (choice.ok ? chosen : 'resampled');

type Resolution = EvaluationResult['resolutions'][number];

/**
 * The figure's caption: the grid, how its data were made, and which sample is shown, e.g.
 * "s = 57, solved at s = 57 by the generator (…); validation sample 3 (source sample 17)".
 */
export function provenanceCaption(res: Resolution, training: boolean, sample: { index: number; sourceIndex?: number | undefined } | undefined): string {
  const side = res.grid.every((g) => g === res.grid[0]) ? `s = ${res.grid[0]}` : res.grid.join('×');
  const how = res.origin ?? 'how the grid was made is not recorded';
  const which = sample ? `; validation sample ${sample.index}${sample.sourceIndex !== undefined ? ` (source sample ${sample.sourceIndex})` : ''}` : '';
  return `${side}${training ? ' (training grid)' : ''}, ${how}${which}`;
}
