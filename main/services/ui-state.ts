// The workbench's UI state (open view, selected run and dataset, theme, per-view choices) lives in
// the workspace, <workspace>/.lino/ui-state.json, never in browser storage: it follows the
// workspace across hosts (Electron, browser mode) and restarts. Written atomically; a damaged or
// foreign file is ignored with a warning so the app still starts.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ApiError, UI_STATE_MAX_BYTES, UiState } from '../api/contract';
import { writeJsonAtomic } from '../util/atomic-file';
import { errorMessage } from '../util/error-message';

const FORMAT = 'lino-ui-state';
const VERSION = 1;

export function uiStatePath(workspace: string): string {
  return join(workspace, '.lino', 'ui-state.json');
}

export function readUiState(workspace: string): { state: UiState | null; warning?: string } {
  const path = uiStatePath(workspace);
  if (!existsSync(path)) return { state: null };
  try {
    const text = readFileSync(path, 'utf8');
    if (text.length > UI_STATE_MAX_BYTES * 2) throw new Error(`larger than ${UI_STATE_MAX_BYTES / 1024} KiB`);
    const json = JSON.parse(text) as { format?: unknown; version?: unknown; state?: unknown };
    if (!json || json.format !== FORMAT) throw new Error(`not a '${FORMAT}' file`);
    if (json.version !== VERSION) throw new Error(`version ${String(json.version)}, expected ${VERSION}`);
    const r = UiState.safeParse(json.state);
    if (!r.success) throw new Error(`field 'state': ${r.error.issues[0]!.message}`);
    return { state: r.data };
  } catch (e) {
    return { state: null, warning: `ignored the saved UI state ${path}: ${errorMessage(e)}` };
  }
}

export function writeUiState(workspace: string, state: unknown): { bytes: number } {
  const r = UiState.safeParse(state);
  if (!r.success) throw new ApiError(`ui.state.set: invalid parameter 'state': ${r.error.issues[0]!.message}`, 'invalid_params', { field: 'state' });
  const path = uiStatePath(workspace);
  writeJsonAtomic(path, { format: FORMAT, version: VERSION, savedAt: new Date().toISOString(), state: r.data });
  return { bytes: JSON.stringify(r.data).length };
}
