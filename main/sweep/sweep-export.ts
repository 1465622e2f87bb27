// A sweep on a cluster: every trial of a grid or random sweep exported as its own run folder
// (main/train/cluster-export.ts: data, config, scaleout package, run.sh, slurm.sbatch), plus one
// SLURM array job (one task per trial) and a script running one torchrun per trial. Back here,
// --collect copies each trained run folder into the workspace as the trial's run, and the sweep
// records it like a run it trained (ASHA does not apply there: each trial trains its epochs).
import { chmodSync, cpSync, lstatSync, renameSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { exportRunForCluster } from '../train/cluster-export';
import { RunStore } from '../runs/run-store';
import { assertRunUnlocked } from '../runs/run-lock';
import { writeFileAtomic } from '../util/atomic-file';
import { prepareOutputFolder } from '../util/output-folder';
import { removeTemp } from '../util/remove-tree';
import { SweepRunner, lockSweep, runEpochs } from './sweep-runner';
import { readSweepState } from './sweep-state';
import { assertPlainFolder, checkCollectedRun, CollectRefusedError } from './collected-run';

export interface SweepExport { out: string; trials: string[]; skipped: string[] }

/**
 * Writes every trial of a grid or random sweep into `outDir`: a new or empty folder, or `force`
 * (files of the same names replaced, others kept), so nothing a user made there is overwritten.
 */
export async function exportSweepForCluster(workspace: string, id: string, outDir: string, o: { nprocPerNode: number; nodes: number; force?: boolean }): Promise<SweepExport> {
  const runner = new SweepRunner(workspace, id, () => Promise.reject(new Error('an export trains nothing')), { owner: 'lino sweep --export' });
  runner.assertPlannable();
  const out = prepareOutputFolder(outDir, { force: o.force, flag: '--export' });
  const release = runner.hold(); // the whole export: no other process trains the planned runs meanwhile
  try {
    return await exportPlanned(runner, workspace, id, out, o);
  } finally {
    release();
  }
}

async function exportPlanned(runner: SweepRunner, workspace: string, id: string, out: string, o: { nprocPerNode: number; nodes: number; force?: boolean }): Promise<SweepExport> {
  const planned = runner.planAll();
  const trials: string[] = [];
  for (const { run } of planned) {
    await exportRunForCluster(run, join(out, run.id), { nprocPerNode: o.nprocPerNode, nodes: o.nodes, workspace, overwrite: o.force });
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
 * workspace, when the local run has not trained (nothing made here is overwritten). Every trained
 * folder is checked first (collected-run.ts: no symbolic link, finite metrics, named refusals), so a
 * refusal leaves the workspace as it was; each one is then built under a temporary name beside its
 * run (the local run's files, the trained ones over them) and renamed into place, so a failure never
 * leaves a run half-copied. Holds the sweep's lock. Returns what it took.
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
  const root = resolve(dir);
  assertPlainFolder(root, 'the --collect folder');
  const take: { runId: string; src: string }[] = [], skipped: string[] = [];
  for (const t of state.trials) {
    const folder = join(root, t.runId);
    if (!exists(folder)) continue;
    assertPlainFolder(folder, `trial ${t.runId}'s folder`);
    if (!exists(join(folder, 'runs'))) continue;
    assertPlainFolder(join(folder, 'runs'), `trial ${t.runId}'s runs folder`);
    const src = join(folder, 'runs', `${t.runId}-cluster`);
    if (!exists(src)) continue;
    const local = store.open(t.runId);
    checkCollectedRun(src, local.dir);
    if (runEpochs(local).length > 0) skipped.push(t.runId);
    else {
      assertRunUnlocked(t.runId, local.dir);
      take.push({ runId: t.runId, src });
    }
  }
  for (const { runId, src } of take) replaceRun(store.open(runId).dir, src);
  return { out: root, trials: take.map((x) => x.runId), skipped };
}

/** Whether a path exists, a dangling link included (lstat). */
function exists(path: string): boolean {
  try {
    lstatSync(path);
    return true;
  } catch {
    return false;
  }
}

/** `runDir` becomes its own files with `src`'s over them, atomically (a rename); temporaries go through removeTemp. */
function replaceRun(runDir: string, src: string): void {
  const parent = resolve(runDir, '..');
  const name = runDir.slice(parent.length + 1);
  const tmp = join(parent, `.${name}.${process.pid}.partial`);
  const old = join(parent, `.${name}-replaced.${process.pid}.partial`);
  const plain = (p: string) => {
    if (lstatSync(p).isSymbolicLink()) throw new CollectRefusedError(p, 'became a symbolic link while it was copied');
    return true;
  };
  try {
    cpSync(runDir, tmp, { recursive: true, filter: plain });
    cpSync(src, tmp, { recursive: true, force: true, filter: plain });
    renameSync(runDir, old);
  } catch (e) {
    removeTemp(tmp);
    throw e;
  }
  try {
    renameSync(tmp, runDir);
  } catch (e) {
    renameSync(old, runDir); // put the local run back as it was
    removeTemp(tmp);
    throw e;
  }
  removeTemp(old);
}
