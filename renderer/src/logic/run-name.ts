// The Training form's Name field: a typed name belongs to the run it was typed for. It
// is kept (across reloads) while the data and the model kind are the ones it was typed beside, and
// cleared once that run starts, so "deeponet-darcy" never names the next, unrelated run.

export interface TypedName { name: string; for: string }

export const NO_NAME: TypedName = { name: '', for: '' };

/** What a name is typed for: the data source and the model kind. */
export const runNameKey = (source: string, kind: string): string => `${source}|${kind}`;

/** The name the field shows for the form's current data and kind ('' for another run). */
export function shownName(t: TypedName, key: string): string {
  return t.for === key ? t.name : '';
}

export function validTypedName(v: unknown): boolean {
  const t = v as TypedName;
  return !!t && typeof t === 'object' && typeof t.name === 'string' && t.name.length <= 500 && typeof t.for === 'string' && t.for.length <= 600;
}
