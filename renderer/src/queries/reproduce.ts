// The Reproduce view's reads and actions: the preset list (reproduce.list, read once per
// connection) and starting a preset as a 'reproduce' job (reproduce.start); the job itself is
// followed like every other job, through the app store's job events.
import type { JobSummary } from '../../../main/api/contract';
import type { ReproducePresetInfo, ReproduceResult, ReproduceSize } from '../../../main/api/reproduce';
import { errorText } from '../api/error-text';
import { useApp } from '../stores/app-store';
import { useQuery } from './use-query';

export function useReproducePresets(): { presets: ReproducePresetInfo[] | null; error: string | null } {
  const q = useQuery('reproduce.list', (a) => a.call('reproduce.list', {}));
  return { presets: q.value, error: q.error ? `Could not list the presets: ${q.error}` : null };
}

/**
 * The workspace's finished reproductions, their main tables rebuilt from the runs on disk (read
 * again when `version` changes: a reproduction finished, a run was deleted).
 */
export function useReproductions(version: string): { results: ReproduceResult[]; problems: string[]; error: string | null } {
  const path = useApp((s) => s.workspace?.path ?? '');
  const q = useQuery(`reproduce.results:${path}:${version}`, (a) => a.call('reproduce.results', {}), { keep: true });
  return { results: q.value?.results ?? [], problems: q.value?.problems ?? [], error: q.error ? `Could not read the earlier reproductions: ${q.error}` : null };
}

/** The newest reproduction of a preset and size, and how many there are. */
export function latestOf(results: ReproduceResult[], name: string, size: ReproduceSize): { latest: ReproduceResult | null; count: number } {
  const mine = results.filter((r) => r.preset === name && r.size === size);
  return { latest: mine[mine.length - 1] ?? null, count: mine.length };
}

/**
 * The newest reproduction of a preset and size still queued or running in the engine (by its
 * label, main/engine/reproduce-job.ts `reproduceLabel`): after a reload, a restart of the page or
 * a view switch the view follows it again instead of forgetting the job it started.
 */
export function pendingReproduction(jobs: Record<string, JobSummary>, name: string, size: ReproduceSize): string | null {
  const label = `Reproduce ${name} (${size})`;
  const mine = Object.values(jobs).filter((j) => j.kind === 'reproduce' && j.label === label && (j.state === 'queued' || j.state === 'running'));
  return mine.sort((a, b) => (b.seq ?? 0) - (a.seq ?? 0))[0]?.id ?? null;
}

/** The name a next reproduction's runs and folder get: 'burgers-tiny-run2' (run-preset.ts `reproductionName`). */
export function nextRunName(name: string, size: ReproduceSize, count: number): string {
  return `${name}-${size}${count + 1 > 1 ? `-run${count + 1}` : ''}`;
}

/**
 * Starts a preset (`again`: a new group beside an earlier reproduction; `backend`: every run on
 * PyTorch on that device, else the engine); the job's id, or why it could not start.
 */
export async function startReproduction(name: string, size: ReproduceSize, again = false, backend?: 'torch:cpu' | 'torch:cuda' | 'torch:mps'): Promise<{ jobId: string } | { error: string }> {
  const api = useApp.getState().api;
  if (!api) return { error: 'Could not start the reproduction: not connected to the workbench' };
  try {
    return { jobId: (await api.call('reproduce.start', { name, size, ...(again ? { again } : {}), ...(backend ? { backend } : {}) })).id };
  } catch (e) {
    return { error: `Could not start the reproduction: ${errorText(e)}` };
  }
}

/**
 * A table note as the view and its exports print it: no file paths of the project's sources
 * ("LiNO paper (Tables 1-3) via notes/protocol.md" -> "LiNO paper (Tables 1-3)").
 */
export function displayNote(note: string): string {
  return note
    .replace(/\s*\b(?:via|from|see|in)\s+(?:\.{0,2}\/)?[\w.-]+(?:\/[\w.-]+)+\.\w+/gi, '')
    .replace(/\s*\(?(?:\.{0,2}\/)?[\w.-]+(?:\/[\w.-]+)+\.(?:md|ts|json|py|txt)\)?/g, '')
    .trim();
}

/** A folder inside the workspace as the views name saved files ("exports/reproduce-burgers-tiny"); a folder elsewhere stays whole. */
export function workspaceRelative(path: string, workspace: string | null | undefined): string {
  if (!workspace) return path;
  const root = workspace.replace(/[\\/]+$/, '');
  const rest = path.slice(root.length);
  return path.startsWith(root) && /^[\\/]/.test(rest) ? rest.slice(1) : path;
}
