// The Runs table's search: words match anywhere in a run's name, group, state, notes, tags or
// configuration differences (case-insensitive, all words must match); "tag:x" asks for tag x exactly.
import type { RunSummary } from '../../../main/api/contract';

export function parseRunQuery(q: string): { words: string[]; tags: string[] } {
  const words: string[] = [];
  const tags: string[] = [];
  for (const t of q.trim().split(/\s+/).filter(Boolean)) {
    if (/^tag:./i.test(t)) tags.push(t.slice(4));
    else words.push(t.toLowerCase());
  }
  return { words, tags };
}

export function runMatches(run: RunSummary, q: { words: string[]; tags: string[] }, diff = ''): boolean {
  const tags = run.tags ?? [];
  if (!q.tags.every((t) => tags.includes(t))) return false;
  const hay = [run.name, run.group ?? '', run.state, run.notes ?? '', tags.join(' '), diff].join('\n').toLowerCase();
  return q.words.every((w) => hay.includes(w));
}

/** Tags used by any run, sorted, for the tag filter's choices. */
export function allTags(runs: RunSummary[]): string[] {
  return [...new Set(runs.flatMap((r) => r.tags ?? []))].sort((a, b) => a.localeCompare(b));
}

/** Tags typed into the notes form: separated by commas and/or spaces. */
export function splitTags(text: string): string[] {
  return text.split(/[\s,]+/).filter(Boolean);
}
