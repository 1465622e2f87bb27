// A run's checkpoints as the Runs view lists them, and a copy of one's weights into the workspace's
// exports/ folder, from where both hosts hand it over (exports.read for a browser download,
// exports.saveAs in Electron). The client names a run id and 'best' | 'last', never a path.
import { statSync } from 'node:fs';
import { join } from 'node:path';
import { ApiError } from '../api/contract';
import { readCheckpointState, weightsPath, type CheckpointName } from '../runs/checkpoint';
import { copyFileAtomic } from '../util/atomic-file';
import { errorMessage } from '../util/error-message';
import { freeName } from '../util/free-name';

export interface CheckpointEntry {
  checkpoint: CheckpointName;
  epoch: number;
  step: number;
  /** Size of weights.safetensors, what a download carries. */
  bytes: number;
  savedAt: string;
  bestValRelL2: number | null;
}

export function listCheckpoints(runDir: string): CheckpointEntry[] {
  const out: CheckpointEntry[] = [];
  for (const name of ['best', 'last'] as const) {
    try {
      const st = readCheckpointState(runDir, name);
      const w = weightsPath(runDir, name);
      if (!st || !w) continue;
      out.push({ checkpoint: name, epoch: st.epoch, step: st.globalStep, bytes: statSync(w).size, savedAt: st.savedAt, bestValRelL2: st.best?.valRelL2 ?? null });
    } catch {
      // A checkpoint being swapped right now (or damaged) is left out of the listing, not fatal.
    }
  }
  return out;
}

/**
 * Copies the checkpoint's weights.safetensors (state_dict names: loads in PyTorch) to
 * exports/<run>-<best|last>-epoch<N>.safetensors, never over an existing file; atomic.
 * Retries once when the trainer swapped the checkpoint folder during the copy.
 */
export function exportCheckpoint(runDir: string, runId: string, name: CheckpointName, exportsDir: string): { name: string; size: number } {
  for (let attempt = 0; ; attempt++) {
    const st = readCheckpointState(runDir, name);
    const src = weightsPath(runDir, name);
    if (!st || !src) throw new ApiError(`run '${runId}' has no '${name}' checkpoint yet`, 'not_found', { field: 'checkpoint' });
    const file = freeName(exportsDir, `${runId}-${name}-epoch${st.epoch}`, '.safetensors');
    const dest = join(exportsDir, file);
    try {
      copyFileAtomic(src, dest);
    } catch (e) {
      if (attempt < 1 && (e as NodeJS.ErrnoException).code === 'ENOENT') continue;
      throw new ApiError(`could not copy ${src} to ${dest}: ${errorMessage(e)}`, 'failed', { file: src });
    }
    return { name: file, size: statSync(dest).size };
  }
}
