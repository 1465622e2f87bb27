// The engine's side of runs.importCheckpoint: a PyTorch checkpoint into the workspace's runs/.
// Quick for a checkpoint alone; with data it prepares them once to check the channels.
import { join } from 'node:path';
import { ApiError } from '../api/api-error';
import { type DataSpec } from '../data/data-spec';
import { RunStore } from '../runs/run-store';
import { importTorchCheckpoint } from '../train/import-checkpoint';
import { initBackend } from './tf-runtime';

export async function importCheckpointCall(p: { path: string; workspace: string; data?: DataSpec; name?: string }): Promise<{ runId: string; notes: string[] }> {
  // With data the imported weights are evaluated once (the run's metrics record).
  if (p.data) await initBackend();
  try {
    const { run, notes } = await importTorchCheckpoint(new RunStore(join(p.workspace, 'runs')), p.path, { workspace: p.workspace, ...(p.data ? { data: p.data } : {}), ...(p.name ? { name: p.name } : {}) });
    return { runId: run.id, notes };
  } catch (e) {
    // Bad input (refused global, damaged zip, channels that do not fit) names the file; say which field it came from.
    const message = (e as Error).message;
    throw new ApiError(message, 'invalid_params', { field: message.includes('does not fit the data') ? 'data' : 'file', file: p.path });
  }
}
