// Why a reference field has a feature a model is not to blame for, read from the dataset's manifest,
// for the |error| maps' captions: FNO's Darcy procedure (solve_gwf.m) splines the coefficient onto
// the nodes without clamping, so the reference's corner cells come from the spline's extrapolation
// onto the boundary, and every |error| map shows a bright corner pixel there. The manifest records
// it (source.generator.params.clamp = false); the views said nothing of it.
export const UNCLAMPED_SPLINE_NOTE =
  "The reference's corner cells come from the coefficient's not-a-knot spline extrapolated onto the boundary without clamping " +
  "(FNO's solve_gwf.m, as this dataset's manifest records: params.clamp = false), so a bright corner pixel in |error| is the reference's, not the model's.";

const obj = (v: unknown): Record<string, unknown> | null => (v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : null);

/** The caveat a dataset's manifest (parsed, untrusted) gives its references' |error| maps, or null when it has none. */
export function referenceNote(manifest: unknown): string | null {
  const generator = obj(obj(obj(manifest)?.source)?.generator);
  const params = obj(generator?.params);
  if (!params || params.benchmark !== 'darcy') return null;
  return params.clamp === false ? UNCLAMPED_SPLINE_NOTE : null;
}
