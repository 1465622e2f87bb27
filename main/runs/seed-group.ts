// A seed group: one configuration trained once per seed (seed, seed + 1, ...), its runs tied by
// config.group. The service's train.start with `seeds` and `lino train --seeds` name them alike.

/** A new group's name: the configuration's name made id-safe (at most 60 characters) and a time stamp. */
export function newGroupName(name: unknown): string {
  return `${String(name ?? 'group').replace(/[^A-Za-z0-9._-]+/g, '-').slice(0, 60)}-${Date.now().toString(36)}`;
}

/** The configuration of the group's i-th run: seed + i, named after its seed. */
export function seedRunConfig<C extends { seed: number; name?: string }>(cfg: C, group: string, i: number): C & { group: string } {
  const seed = cfg.seed + i;
  return { ...cfg, group, seed, name: `${cfg.name ?? group} (seed ${seed})` };
}
