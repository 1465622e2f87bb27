// The LiNO block scalars the Gates view plots, and why a run has none of one. Pure.

export const SCALARS: { key: string; label: string }[] = [
  { key: 'beta', label: 'β (efficient scattering)' },
  { key: 'eta', label: 'η (refraction)' },
  { key: 'sigma', label: 'σ (scattering)' },
  { key: 'tau', label: 'τ = softplus(log τ) (full scattering)' },
];

/** Why a block scalar is missing from a run, read from the recorded blocks (components and scalars). */
export function absentScalarReason(key: string, blocks: { components: string[]; scalars: Record<string, number> }[]): string | null {
  if (blocks.length === 0 || blocks.some((b) => b.scalars[key] != null)) return null;
  const has = (c: string) => blocks.some((b) => b.components.includes(c));
  if (key === 'eta') return has('refraction') ? 'not recorded for this run' : 'refraction is off in this run';
  if (!has('scattering')) return 'scattering is off in this run';
  const efficient = blocks.some((b) => b.scalars.beta != null);
  if (key === 'tau') return efficient ? 'τ belongs to full scattering; this run uses efficient scattering' : 'not recorded for this run';
  if (key === 'beta') return efficient ? 'not recorded for this run' : 'β belongs to efficient scattering; this run uses full scattering';
  return 'not recorded for this run';
}
