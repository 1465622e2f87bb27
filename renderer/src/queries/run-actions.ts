// One-off actions on runs that views start from a button (no state to keep): open a run's folder,
// copy a checkpoint's weights into exports/, write its offline report, export it for a cluster, import a PyTorch checkpoint
// as a run, time a configuration before it trains. Errors are thrown for the
// view to show next to the button.
import type { Calibration, Params, Result } from '../../../main/api/contract';
import { downloadExport } from '../export/save';
import { requireApi, useApp } from '../stores/app-store';

const api = requireApi;

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

/**
 * Writes the offline report of a run, a sweep or a reproduction into exports/ (runs.report,
 * sweeps.report, reproduce.report; with `pdf` also its PDF, printed on the host) and in browser mode downloads it.
 */
export async function writeReport(kind: 'run' | 'sweep' | 'reproduction', id: string, pdf = false): Promise<Result<'runs.report'>> {
  const a = api();
  const r = await a.call(kind === 'run' ? 'runs.report' : kind === 'sweep' ? 'sweeps.report' : 'reproduce.report', { id, pdf });
  if (useApp.getState().host?.kind === 'browser') await downloadExport(a, r.pdf ?? r.name);
  void useApp.getState().refreshWorkspace();
  return r;
}

/** Starts the cluster export job (runs.exportForCluster); answers its job id. */
export async function exportForCluster(id: string, nprocPerNode: number, nodes: number): Promise<string> {
  return (await api().call('runs.exportForCluster', { id, nprocPerNode, nodes })).id;
}

/** Imports a torch.save .pt file as a run, checked against a workspace dataset when one is given. */
export function importCheckpoint(file: string, dataset: string | null): Promise<Result<'runs.importCheckpoint'>> {
  return api().call('runs.importCheckpoint', { file, ...(dataset ? { data: { kind: 'dataset', id: dataset } } : {}) });
}

/** Times 3 training steps of a configuration on the backend it would use (train.calibrate). */
export function calibrate(config: Params<'train.calibrate'>['config']): Promise<Calibration> {
  return api().call('train.calibrate', { config, steps: 3 });
}
