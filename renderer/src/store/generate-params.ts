// What a benchmark generation will use, shown before it starts. Pure.

/**
 * The parameters a generation will use, as [name, value, preset value when overridden]: the
 * preset's, with the Samples and Seed fields applied when they hold a valid number (blank: the
 * preset's own).
 */
export function effectiveParams(params: Record<string, unknown>, typed: { samples: string; seed: string }): [string, string, string | undefined][] {
  const override: Record<string, number> = {};
  for (const k of ['samples', 'seed'] as const) {
    const t = typed[k].trim();
    const n = Number(t);
    if (t !== '' && Number.isInteger(n) && n >= (k === 'samples' ? 2 : 0)) override[k] = n;
  }
  const out: [string, string, string | undefined][] = [];
  for (const [k, v] of Object.entries(params)) {
    if (k === 'benchmark') continue;
    if (k in override && override[k] !== v) out.push([k, String(override[k]), String(v)]);
    else out.push([k, String(v), undefined]);
  }
  return out;
}
