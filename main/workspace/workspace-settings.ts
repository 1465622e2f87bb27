// The settings of one workspace (which relL2 the views headline), kept in its workspace.json beside
// the format marker, so they travel with the folder (a colleague's copy, a cluster's) and a
// workspace opened elsewhere headlines the same numbers. The file is read as untrusted: a missing,
// damaged or hand-edited value falls back to the default.
import { join } from 'node:path';
import { writeJsonAtomic } from '../util/atomic-file';
import { readUserText } from '../util/user-file';
import { WorkspaceSettings } from '../api/host-records';

export const DEFAULT_WORKSPACE_SETTINGS: WorkspaceSettings = { relL2Headline: 'normalized' };

function readMarker(workspace: string): Record<string, unknown> {
  try {
    const v = JSON.parse(readUserText(join(workspace, 'workspace.json'), { maxBytes: 1 << 20, what: 'the workspace marker' }));
    return v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

/** The workspace's settings: each stored one that is valid, the default for the others. */
export function readWorkspaceSettings(workspace: string): WorkspaceSettings {
  const stored = readMarker(workspace).settings;
  const out: WorkspaceSettings = { ...DEFAULT_WORKSPACE_SETTINGS };
  if (stored && typeof stored === 'object') {
    for (const key of Object.keys(out) as (keyof WorkspaceSettings)[]) {
      const one = WorkspaceSettings.shape[key].safeParse((stored as Record<string, unknown>)[key]);
      if (one.success) out[key] = one.data;
    }
  }
  return out;
}

/** Sets the given settings (the others kept) in workspace.json, keeping its other fields; answers them all. */
export function updateWorkspaceSettings(workspace: string, patch: Partial<WorkspaceSettings>): WorkspaceSettings {
  const given = Object.fromEntries(Object.entries(patch).filter(([, v]) => v !== undefined));
  if (Object.keys(given).length === 0) return readWorkspaceSettings(workspace); // a read: the file stays as it is
  const marker = readMarker(workspace);
  const settings = { ...readWorkspaceSettings(workspace), ...given };
  writeJsonAtomic(join(workspace, 'workspace.json'), { format: 'lino-workspace', version: 1, ...marker, settings });
  return settings;
}
