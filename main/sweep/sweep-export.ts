// A sweep on a cluster: every trial of a grid or random sweep exported as its own run folder
// (main/train/cluster-export.ts: data, config, scaleout package, run.sh, slurm.sbatch), plus one
// SLURM array job (one task per trial) and a script running one torchrun per trial. Back here,
// --collect copies each trained run folder into the workspace as the trial's run, and the sweep
// records it like a run it trained (ASHA does not apply there: each trial trains its epochs).
import { cpSync, existsSync, mkdirSync, chmodSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { exportRunForCluster } from '../train/cluster-export';
import { RunStore } from '../runs/run-store';
import { writeFileAtomic } from '../util/atomic-file';
import { SweepRunner } from './sweep-runner';
import { readSweepState } from './sweep-state';
import { lockSweep, runEpochs } from './sweep-runner';

export interface SweepExport { out: string; trials: string[]; skipped: string[] }

export async function exportSweepForCluster(workspace: string, id: string, outDir: string, o: { nprocPerNode: number; nodes: number }): Promise<SweepExport> {
  const out = resolve(outDir);
  if (existsSync(join(out, 'sweep-array.sbatch'))) throw new Error(`${out}: already holds a sweep export (sweep-array.sbatch); choose an empty folder`);
  const runner = new SweepRunner(workspace, id, () => Promise.reject(new Error('an export trains nothing')));
  const planned = runner.planAll();
  mkdirSync(out, { recursive: true });
  const trials: string[] = [];
  for (const { run } of planned) {
    await exportRunForCluster(run, join(out, run.id), { nprocPerNode: o.nprocPerNode, nodes: o.nodes, workspace });
    trials.push(run.id);
  }
  const n = o.nprocPerNode;
  writeFileAtomic(join(out, 'sweep-array.sbatch'), [
    '#!/bin/bash',
    `#SBATCH --job-name=lino-sweep-${id}`,
    `#SBATCH --array=0-${Math.max(0, trials.length - 1)}`,
    `#SBATCH --nodes=1`,
    '#SBATCH --ntasks-per-node=1',
    `#SBATCH --gpus-per-node=${n}`,
    '#SBATCH --cpus-per-task=8',
    '#SBATCH --time=24:00:00',
    '#SBATCH --output=slurm-%A_%a.out',
    '# One array task per trial; each trains its trial folder (resubmitting resumes from checkpoints/last).',
    'set -euo pipefail',
    `TRIALS=(${trials.join(' ')})`,
    'cd "$SLURM_SUBMIT_DIR/${TRIALS[$SLURM_ARRAY_TASK_ID]}"',
    `exec torchrun --standalone --nproc_per_node=${n} -m scaleout.train --run-dir "runs/\${TRIALS[$SLURM_ARRAY_TASK_ID]}-cluster" --data data --config config.json`,
    '',
  ].join('\n'));
  writeFileAtomic(join(out, 'run-all.sh'), ['#!/bin/sh', '# One torchrun per trial, one after another, on this machine.', 'set -e', 'cd "$(dirname "$0")"', ...trials.map((t) => `(cd ${t} && ./run.sh)`), ''].join('\n'));
  chmodSync(join(out, 'run-all.sh'), 0o755);
  return { out, trials, skipped: [] };
}

/**
 * Copies each trial trained on the cluster (DIR/<run>/runs/<run>-cluster/) into runs/<run>/ of the
 * workspace, when the local run has not trained (nothing made here is overwritten). Returns what it took.
 */
export function collectSweepFromCluster(workspace: string, id: string, dir: string): SweepExport {
  const lock = lockSweep(workspace, id, 'lino sweep --collect');
  try {
    return collectLocked(workspace, id, dir);
  } finally {
    lock.release();
  }
}

function collectLocked(workspace: string, id: string, dir: string): SweepExport {
  const state = readSweepState(workspace, id);
  const store = new RunStore(join(workspace, 'runs'));
  const trials: string[] = [], skipped: string[] = [];
  for (const t of state.trials) {
    const src = join(resolve(dir), t.runId, 'runs', `${t.runId}-cluster`);
    if (!existsSync(join(src, 'config.json'))) continue;
    const local = store.open(t.runId);
    if (runEpochs(local).length > 0) {
      skipped.push(t.runId);
      continue;
    }
    cpSync(src, local.dir, { recursive: true, force: true });
    trials.push(t.runId);
  }
  return { out: resolve(dir), trials, skipped };
}
