// One-off actions on a run that views start from a button (no state to keep): open its folder,
// copy a checkpoint's weights into exports/, export it for a cluster. Errors are thrown for the
// view to show next to the button.
import type { Result } from '../../../main/api/contract';
import { downloadExport } from '../export/save';
import { useApp } from './app-store';

function api() {
  const a = useApp.getState().api;
  if (!a) throw new Error('not connected to the workbench');
  return a;
}

/** Electron opens the folder in the file manager; a browser page cannot, so the path comes back to show. */
export function revealRun(id: string): Promise<Result<'runs.reveal'>> {
  return api().call('runs.reveal', { id });
}

/** Copies a checkpoint's weights into exports/ (and in browser mode downloads them); answers the export. */
export async function exportCheckpoint(id: string, checkpoint: 'best' | 'last'): Promise<Result<'runs.exportCheckpoint'>> {
  const a = api();
  const r = await a.call('runs.exportCheckpoint', { id, checkpoint });
  if (useApp.getState().host?.kind === 'browser') await downloadExport(a, r.name);
  void useApp.getState().refreshWorkspace();
  return r;
}

/** Starts the cluster export job (runs.exportForCluster); answers its job id. */
export async function exportForCluster(id: string, nprocPerNode: number, nodes: number): Promise<string> {
  return (await api().call('runs.exportForCluster', { id, nprocPerNode, nodes })).id;
}
