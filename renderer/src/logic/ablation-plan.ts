// What an ablation of a base run consists of: the variants (full model and one light component
// off at a time), their deterministic seed-group names, and the training configs that launch them.
// Pure (no React, no API): group names are derived from the base only, so the Ablation view finds
// an ablation again after a restart by reading the run list, and node:test can check it.
import type { TrainConfigInput } from '../../../main/api/contract';
import { COMPONENT_NAMES, type ComponentName } from './model-draft';

export type VariantKey = 'full' | 'no-reflection' | 'no-refraction' | 'no-scattering';

export interface Variant {
  key: VariantKey;
  /** The paper's wording (Table 3). */
  label: string;
  /** The component switched off; null for the full model. */
  off: ComponentName | null;
}

export const VARIANTS: Variant[] = [
  { key: 'full', label: 'LiNO (full)', off: null },
  { key: 'no-reflection', label: 'LiNO w/o reflection', off: 'reflection' },
  { key: 'no-refraction', label: 'LiNO w/o refraction', off: 'refraction' },
  { key: 'no-scattering', label: 'LiNO w/o scattering', off: 'scattering' },
];

const VARIANT_KEYS = new Set<string>(VARIANTS.map((v) => v.key));
/** TrainConfig.group allows 200 characters; the longest suffix is 14. */
const MAX_KEY = 180;

/** Splits 'key/variant' into its parts; null for a group that is not an ablation's. */
export function parseAblationGroup(group: string | null | undefined): { key: string; variant: VariantKey } | null {
  if (!group) return null;
  const i = group.lastIndexOf('/');
  if (i <= 0) return null;
  const variant = group.slice(i + 1);
  return VARIANT_KEYS.has(variant) ? { key: group.slice(0, i), variant: variant as VariantKey } : null;
}

/**
 * The name an ablation of this run goes by: its seed group's, or the run id when it has none. A run
 * that is itself part of an ablation maps to that ablation, so picking any of its runs shows it.
 */
export function ablationKey(base: { id: string; group: string | null }): string {
  const parsed = parseAblationGroup(base.group);
  if (parsed) return parsed.key;
  return (base.group ?? base.id).slice(0, MAX_KEY);
}

export function variantGroup(key: string, variant: VariantKey): string {
  return `${key}/${variant}`;
}

/** Components a variant keeps; null when it is not an ablation of this base (component already off, or nothing left). */
export function variantComponents(base: ComponentName[], variant: Variant): ComponentName[] | null {
  if (variant.off === null) return [...base];
  if (!base.includes(variant.off)) return null;
  const kept = COMPONENT_NAMES.filter((c) => c !== variant.off && base.includes(c));
  return kept.length > 0 ? kept : null;
}

export function baseComponents(config: Record<string, unknown>): ComponentName[] {
  const model = (config.model ?? {}) as { components?: unknown };
  const c = Array.isArray(model.components) ? model.components.filter((x): x is ComponentName => (COMPONENT_NAMES as string[]).includes(x)) : [];
  return c.length > 0 ? c : [...COMPONENT_NAMES];
}

/**
 * Where the full model's runs come from. An existing `<key>/full` always wins (so the answer does
 * not change once it was launched); else the base's own seed group (the key) serves when it
 * already has enough seeds; otherwise `<key>/full` is trained with the other variants' seeds.
 */
export function fullGroup(o: { key: string; groupSizes: Map<string, number>; seeds: number }): { group: string; reuse: boolean } {
  const own = variantGroup(o.key, 'full');
  if ((o.groupSizes.get(own) ?? 0) > 0) return { group: own, reuse: false };
  if ((o.groupSizes.get(o.key) ?? 0) >= o.seeds) return { group: o.key, reuse: true };
  return { group: own, reuse: false };
}

/**
 * The configuration the ablation starts from. A run of the ablation itself has one component off:
 * it is put back, so picking any of its runs plans the same variants.
 */
export function fullConfig(config: Record<string, unknown>, group: string | null): Record<string, unknown> {
  const off = VARIANTS.find((v) => v.key === parseAblationGroup(group)?.variant)?.off;
  if (!off) return config;
  const have = baseComponents(config);
  return { ...config, model: { ...((config.model ?? {}) as Record<string, unknown>), components: COMPONENT_NAMES.filter((c) => c === off || have.includes(c)) } };
}

/** Config fields the run store sets or the first start records: a new run must not inherit them. */
const NOT_INHERITED = ['id', 'createdAt', 'resolvedData', 'name', 'group', 'seed'];

/** A stored run's configuration without what the store set or the first start recorded: what a new run of it starts from. */
export function inheritedConfig(base: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(base)) if (!NOT_INHERITED.includes(k)) out[k] = v;
  return out;
}

/**
 * The base run's configuration with one component off (or none, for the full model), as a seed
 * group: train.start with `seeds` runs seed, seed + 1, ... Everything else (data, width, depth,
 * scattering, epochs, optimizer, schedule) stays the base's, so only the component differs.
 */
export function variantConfig(base: Record<string, unknown>, variant: Variant, o: { key: string; seed: number; name?: string }): TrainConfigInput | null {
  const components = variantComponents(baseComponents(base), variant);
  if (!components) return null;
  const out = inheritedConfig(base);
  const group = variantGroup(o.key, variant.key);
  out.model = { ...((base.model ?? {}) as Record<string, unknown>), components };
  // Named after the base run ('darcy-a/full'), grouped by the key (the base's id or group).
  out.name = o.name ? `${o.name}/${variant.key}`.slice(0, 200) : group;
  out.group = group;
  out.seed = o.seed;
  return out as TrainConfigInput;
}

/**
 * The variants to launch as one sweep (the ablation is a preset of a sweep: a grid over
 * `model.components`, run by the sweep engine): the variants' shared configuration as the base, one
 * configuration per variant, each with its seed group and name kept ('<key>/<variant>'), so
 * ablations launched before still find their variants. What the Ablation view's Launch sends
 * (sweeps.start); the sweep's trials are ordinary runs, so the table, bars and fields read them.
 */
export function ablationSweep(configs: TrainConfigInput[], seeds: number): Record<string, unknown> {
  if (configs.length === 0) throw new Error('ablation: no variant to launch');
  const { name: _n, group: _g, ...base } = configs[0] as Record<string, unknown>;
  const components = configs.map((c) => ((c as { model?: { components?: string[] } }).model?.components ?? []));
  const key = parseAblationGroup((configs[0] as { group?: string }).group)?.key ?? 'ablation';
  return {
    name: `ablation ${key}`.slice(0, 120),
    base,
    axes: [{ path: 'model.components', values: components }],
    method: 'grid',
    seeds,
    groups: configs.map((c) => {
      const { group, name } = c as { group?: string; name?: string };
      return { group: group ?? '', name: (name ?? group ?? '').slice(0, 180) };
    }),
  };
}

/** The first seed of the base: its group's lowest seed, else its own (TrainConfig's default 42). */
export function baseSeed(config: Record<string, unknown>, groupSeeds: (number | null)[]): number {
  const seeds = groupSeeds.filter((s): s is number => typeof s === 'number');
  if (seeds.length > 0) return Math.min(...seeds);
  return typeof config.seed === 'number' ? config.seed : 42;
}

/** A run's name without the ' (seed N)' a seed group adds (the engine's baseName when it sends one). */
export function runBaseName(run: { name: string; baseName?: string }): string {
  return run.baseName ?? run.name.replace(/ \(seed \d+\)$/, '');
}

/**
 * How a group is shown, never by an internal id or a time stamp: an ablation keyed by a run id
 * ('20261126-042037-7f0ac5/full') or by a seed group by that run's or group's name ('darcy-a/full');
 * any other group by its runs' shared name (a seed group is named after its configuration: 'w8',
 * a sweep's configuration 'grid-demo c1'); failing that, its key without the suffix that made it
 * unique. The key itself stays the id (names are not unique; the Ablation view finds its groups by it).
 */
export function groupLabel(group: string, runs: { id: string; name: string; baseName?: string; group?: string | null }[]): string {
  const parsed = parseAblationGroup(group);
  const base = parsed ? runs.find((r) => r.id === parsed.key) : undefined;
  if (base && parsed) return `${runBaseName(base)}/${parsed.variant}`;
  const names = new Set(runs.filter((r) => r.group === group).map(runBaseName));
  const shared = names.size === 1 ? [...names][0]! : '';
  if (shared && shared !== group) return shared;
  if (parsed) return `${parsed.key.includes('/') ? parsed.key : groupLabel(parsed.key, runs)}/${parsed.variant}`;
  return withoutUniqueSuffix(group);
}

/**
 * A group key without what made it unique: a sweep configuration's '<name>-<8 hex>-c<k>' reads
 * '<name> c<k>', a seed group's '<name>-<time stamp>' (base 36, with a digit) reads '<name>'.
 */
export function withoutUniqueSuffix(group: string): string {
  const sweep = /^(.+)-[0-9a-f]{8}-c(\d+)$/.exec(group);
  if (sweep) return `${sweep[1]} c${sweep[2]}`;
  const stamped = /^(.+)-(?=[0-9a-z]*\d)[0-9a-z]{8}$/.exec(group);
  return stamped ? stamped[1]! : group;
}
