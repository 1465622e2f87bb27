// A run's model kind as the views show it: the kind's short name from its declaration ("FNO"), and
// whether the run has LiNO's light mechanisms (gates, light maps, their ablations): only 'lino' does.
import { MODEL_KINDS, modelKindDeclaration, type RunSummary } from '../../../main/api/contract';

/** The run's registry kind; summaries from before kinds existed are LiNO runs. */
export const runKind = (r: Pick<RunSummary, 'modelKind'>): string => r.modelKind ?? 'lino';

/** "LiNO", "FNO", "DeepONet"; an unknown kind (a newer workspace) as stored. */
export function kindName(kind: string): string {
  return (MODEL_KINDS as readonly string[]).includes(kind) ? modelKindDeclaration(kind).name : kind;
}

/** The kinds of several runs in words, each once ("LiNO / FNO"). */
export const kindsOf = (runs: Pick<RunSummary, 'modelKind'>[]): string => [...new Set(runs.map((r) => kindName(runKind(r))))].join(' / ');

export const hasLightMechanisms = (r: Pick<RunSummary, 'modelKind'>): boolean => runKind(r) === 'lino';

/** Why a view of LiNO's mechanisms has nothing to show for this run. */
export function noMechanismsText(r: Pick<RunSummary, 'modelKind' | 'name'>, what: string): string {
  return `${r.name}: ${kindName(runKind(r))} runs have no ${what}. Only LiNO runs do (their blocks mix reflection, refraction and scattering); pick a LiNO run.`;
}
