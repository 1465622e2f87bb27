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

/** Model fields of LiNO's that live in every run's model section (the other kinds ignore them). */
const LINO_FIELDS = ['scattering', 'components'];

/**
 * Whether a flattened config key ('model.modes') is a setting of that run's kind: every kind
 * reads kind, width and depth; a kind's own fields come from its declaration.
 */
export function configKeyApplies(config: Record<string, unknown>, key: string): boolean {
  const m = /^model\.([^.]+)/.exec(key);
  if (!m) return true;
  const field = m[1]!;
  if (field === 'kind' || field === 'width' || field === 'depth') return true;
  const model = config.model as { kind?: unknown } | undefined;
  const kind = typeof model?.kind === 'string' ? model.kind : 'lino';
  if (!(MODEL_KINDS as readonly string[]).includes(kind)) return true;
  const d = modelKindDeclaration(kind);
  if (Object.keys(d.runFields).includes(field) || d.fields.some((f) => f.field === field)) return true;
  return kind === 'lino' && LINO_FIELDS.includes(field);
}
