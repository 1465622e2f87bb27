// The Runs table's search and grouping. Words match anywhere in a run's name, group, state, notes,
// tags, data or configuration differences (case-insensitive, all must match); "tag:x" asks for tag
// x exactly; "key=value" for a config field ("width=8" or "model.width=8", "lr=0.001"); "dataset:x"
// for data whose name contains x. Grouping puts runs under any config field, tag or dataset.
import type { RunSummary } from '../../../main/api/contract';

export interface RunQuery {
  words: string[];
  tags: string[];
  fields: { key: string; value: string }[];
  datasets: string[];
}

export function parseRunQuery(q: string): RunQuery {
  const out: RunQuery = { words: [], tags: [], fields: [], datasets: [] };
  for (const t of q.trim().split(/\s+/).filter(Boolean)) {
    const eq = /^([A-Za-z][\w.]*)=(.+)$/.exec(t);
    if (/^tag:./i.test(t)) out.tags.push(t.slice(4));
    else if (/^dataset:./i.test(t)) out.datasets.push(t.slice(8).toLowerCase());
    else if (eq) out.fields.push({ key: eq[1]!, value: eq[2]! });
    else out.words.push(t.toLowerCase());
  }
  return out;
}

/** A config field by its dotted key or its last part(s): 'width' finds 'model.width'. */
export function fieldValue(flat: Record<string, string>, key: string): string | undefined {
  if (key in flat) return flat[key];
  const hit = Object.keys(flat).find((k) => k.endsWith(`.${key}`));
  return hit === undefined ? undefined : flat[hit];
}

const sameValue = (a: string, b: string) => a.toLowerCase() === b.toLowerCase() || (a.trim() !== '' && b.trim() !== '' && Number(a) === Number(b));

export function runMatches(run: RunSummary, q: RunQuery, diff = '', flat: Record<string, string> = {}, dataName = ''): boolean {
  const tags = run.tags ?? [];
  if (!q.tags.every((t) => tags.includes(t))) return false;
  if (!q.datasets.every((d) => dataName.toLowerCase().includes(d))) return false;
  if (!q.fields.every((f) => {
    const v = fieldValue(flat, f.key);
    return v !== undefined && sameValue(v, f.value);
  })) return false;
  const hay = [run.name, run.group ?? '', run.state, run.notes ?? '', tags.join(' '), diff, dataName].join('\n').toLowerCase();
  return q.words.every((w) => hay.includes(w));
}

/** How the Runs table groups: seed groups (the default), a tag, the data, or any config field. */
export type GroupBy = '' | 'tag' | 'dataset' | `config:${string}`;

/**
 * Runs under the values of `valueOf` (a run with several tags is under each), buckets in sorted
 * order, runs without a value last under "—".
 */
export function bucketRuns(runs: RunSummary[], valueOf: (r: RunSummary) => string[]): { value: string; members: RunSummary[] }[] {
  const by = new Map<string, RunSummary[]>();
  for (const r of runs) {
    const vs = valueOf(r);
    for (const v of vs.length ? vs : ['—']) (by.get(v) ?? by.set(v, []).get(v)!).push(r);
  }
  const num = (v: string) => (v.trim() !== '' && Number.isFinite(Number(v)) ? Number(v) : null);
  return [...by.entries()]
    .sort(([a], [b]) => (a === '—' ? 1 : b === '—' ? -1 : num(a) != null && num(b) != null ? num(a)! - num(b)! : a.localeCompare(b)))
    .map(([value, members]) => ({ value, members }));
}

/** Mean and population std of the members' best validation errors (runs without one left out). */
export function bestStats(runs: RunSummary[]): { mean: number; std: number; n: number } | null {
  const v = runs.map((r) => r.bestValRelL2).filter((x): x is number => typeof x === 'number' && Number.isFinite(x));
  if (v.length === 0) return null;
  const mean = v.reduce((a, b) => a + b, 0) / v.length;
  return { mean, std: Math.sqrt(v.reduce((a, b) => a + (b - mean) ** 2, 0) / v.length), n: v.length };
}

/** Tags used by any run, sorted, for the tag filter's choices. */
export function allTags(runs: RunSummary[]): string[] {
  return [...new Set(runs.flatMap((r) => r.tags ?? []))].sort((a, b) => a.localeCompare(b));
}

/** Tags typed into the notes form: separated by commas and/or spaces. */
export function splitTags(text: string): string[] {
  return text.split(/[\s,]+/).filter(Boolean);
}

/**
 * The overlay picks the filter leaves: a run shown, a group with a shown run. The curves follow the
 * filter as the table does (a pick stays stored, and comes back when the filter does).
 */
export function scopeSelection(selected: Iterable<string>, shown: RunSummary[]): Set<string> {
  const ids = new Set(shown.map((r) => r.id));
  const groups = new Set(shown.flatMap((r) => (r.group ? [r.group] : [])));
  return new Set([...selected].filter((k) => (k.startsWith('run:') ? ids.has(k.slice(4)) : groups.has(k.slice(6)))));
}

type Stat = { mean: number; std: number } | null;
/** A seed group's per-run numbers (runs.group) and the group's statistics. */
export interface GroupNumbers {
  runs: { id: string; valRelL2: number | null; valRelL2Decoded: number | null; testRelL2: number | null }[];
  valRelL2: Stat; valRelL2Decoded: Stat; testRelL2: Stat;
}

/** Mean and sample std (0 for one) when every value is there, as runs.group computes them; null otherwise. */
function sampleStat(v: (number | null)[]): Stat {
  const xs = v.filter((x): x is number => x !== null && Number.isFinite(x));
  if (xs.length === 0 || xs.length !== v.length) return null;
  const mean = xs.reduce((a, b) => a + b, 0) / xs.length;
  return { mean, std: xs.length > 1 ? Math.sqrt(xs.reduce((a, b) => a + (b - mean) ** 2, 0) / (xs.length - 1)) : 0 };
}

/** A group's statistics over the runs the filter shows (all of them: the engine's own); `n` the seeds they cover. */
export function groupStatsOver(g: GroupNumbers, shownIds: Set<string>): GroupNumbers & { n: number } {
  const runs = g.runs.filter((r) => shownIds.has(r.id));
  if (runs.length === g.runs.length) return { ...g, n: runs.length };
  return { runs, n: runs.length, valRelL2: sampleStat(runs.map((r) => r.valRelL2)), valRelL2Decoded: sampleStat(runs.map((r) => r.valRelL2Decoded)), testRelL2: sampleStat(runs.map((r) => r.testRelL2)) };
}

/** "0.01234 ± 0.00056" over several seeds, the mean alone over one (no ± 0 for a single seed); '—' without. */
export function meanStdText(s: Stat | undefined, n: number): string {
  if (!s) return '—';
  return n > 1 ? `${s.mean.toPrecision(4)} ± ${s.std.toPrecision(2)}` : s.mean.toPrecision(4);
}

/** A group's statistic as an exported cell: mean ± std over several seeds, the number alone over one. */
export function meanStdCell(s: Stat | undefined, n: number): number | { mean: number; std: number } | null {
  if (!s) return null;
  return n > 1 ? { mean: s.mean, std: s.std } : s.mean;
}

/** A group's states in a few words: "3 done", "2 done, 1 running" (most common first). */
export function statesText(members: { state: string }[]): string {
  const n = new Map<string, number>();
  for (const m of members) n.set(m.state, (n.get(m.state) ?? 0) + 1);
  return [...n.entries()].sort((a, b) => b[1] - a[1]).map(([s, k]) => `${k} ${s}`).join(', ');
}
