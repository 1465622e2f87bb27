// The Reproduce view's reads and actions: the preset list (reproduce.list, read once per
// connection) and starting a preset as a 'reproduce' job (reproduce.start); the job itself is
// followed like every other job, through the app store's job events.
import type { ReproducePresetInfo, ReproduceSize } from '../../../main/api/reproduce';
import { errorText } from '../api/error-text';
import { useApp } from './app-store';
import { useQuery } from './use-query';

export function useReproducePresets(): { presets: ReproducePresetInfo[] | null; error: string | null } {
  const q = useQuery('reproduce.list', (a) => a.call('reproduce.list', {}));
  return { presets: q.value, error: q.error ? `Could not list the presets: ${q.error}` : null };
}

/** Starts a preset; the job's id, or why it could not start. */
export async function startReproduction(name: string, size: ReproduceSize): Promise<{ jobId: string } | { error: string }> {
  const api = useApp.getState().api;
  if (!api) return { error: 'Could not start the reproduction: not connected to the workbench' };
  try {
    return { jobId: (await api.call('reproduce.start', { name, size })).id };
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
