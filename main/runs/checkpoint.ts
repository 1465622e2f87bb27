// Checkpoints: runs/<id>/checkpoints/{last,best}/ each hold
//   weights.safetensors   parameters only, the release's state_dict names (loads in PyTorch)
//   optimizer.safetensors AdamW moments: exp_avg.<name>, exp_avg_sq.<name>
//   state.json            epoch, step, optimizer step and hyper-parameters, scheduler, RNG,
//                         normalizer statistics, best validation, backend (written last)
// A checkpoint is written into a sibling temporary folder, every file fsynced, then swapped in by
// renames; an interrupted swap is repaired on the next read, so a reader always finds a complete
// checkpoint (the new one or the previous one).
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { writeFileAtomic, writeJsonAtomic } from '../util/atomic-file';
import { readSafetensorsFile, serializeSafetensors, toFloat32, type F32Entry } from './safetensors';

export type CheckpointName = 'last' | 'best';

export interface CheckpointState {
  format: 'lino-checkpoint';
  version: 1;
  /** Epochs completed (1-based count). */
  epoch: number;
  /** Optimizer steps taken. */
  globalStep: number;
  optimizer: { name: 'adamw'; step: number; lr: number; weightDecay: number; beta1: number; beta2: number; eps: number };
  scheduler: { name: 'steplr'; lastEpoch: number; lr: number; stepSize: number; gamma: number };
  rng: unknown;
  normalizer: unknown;
  best: { epoch: number; valRelL2: number; testRelL2?: number; testRelL2Decoded?: number } | null;
  backend: string;
  savedAt: string;
  /** Lines of metrics.jsonl that belong to the epochs this checkpoint covers. */
  metricsRecords: number;
}

export interface CheckpointData {
  state: CheckpointState;
  weights: Map<string, F32Entry>;
  expAvg: Map<string, F32Entry>;
  expAvgSq: Map<string, F32Entry>;
}

const tmpName = (name: CheckpointName) => `.${name}.tmp`;
const oldName = (name: CheckpointName) => `.${name}.old`;

function complete(dir: string): boolean {
  return existsSync(join(dir, 'state.json')) && existsSync(join(dir, 'weights.safetensors')) && existsSync(join(dir, 'optimizer.safetensors'));
}

/** Finishes or rolls back a swap a crash interrupted; returns the folder of the checkpoint, or null. */
export function checkpointDir(runDir: string, name: CheckpointName): string | null {
  const root = join(runDir, 'checkpoints');
  const cur = join(root, name);
  const tmp = join(root, tmpName(name));
  const old = join(root, oldName(name));
  if (complete(cur)) {
    if (existsSync(old)) rmSync(old, { recursive: true, force: true });
    if (existsSync(tmp)) rmSync(tmp, { recursive: true, force: true });
    return cur;
  }
  // `cur` missing or partial: the crash came between the two renames, or before the first.
  if (complete(tmp)) {
    rmSync(cur, { recursive: true, force: true });
    renameSync(tmp, cur);
    rmSync(old, { recursive: true, force: true });
    return cur;
  }
  if (complete(old)) {
    rmSync(cur, { recursive: true, force: true });
    renameSync(old, cur);
    return cur;
  }
  return null;
}

/**
 * The folder of a complete checkpoint without repairing anything: for readers that may run while
 * the trainer writes (runs.list, evaluation). Repairing there would delete the `.tmp` folder the
 * trainer is filling; the trainer itself repairs (saveCheckpoint, loadCheckpoint) before it writes.
 */
export function peekCheckpointDir(runDir: string, name: CheckpointName): string | null {
  const root = join(runDir, 'checkpoints');
  for (const dir of [join(root, name), join(root, tmpName(name)), join(root, oldName(name))]) if (complete(dir)) return dir;
  return null;
}

/** `weights`: the model's stateDict (read by the caller: GPU backends read asynchronously). */
export function saveCheckpoint(runDir: string, name: CheckpointName, weights: Map<string, F32Entry>, opt: { expAvg: Map<string, F32Entry>; expAvgSq: Map<string, F32Entry> }, state: CheckpointState): void {
  const root = join(runDir, 'checkpoints');
  mkdirSync(root, { recursive: true });
  checkpointDir(runDir, name); // repair first, so the swap below starts from a clean state
  const tmp = join(root, tmpName(name));
  rmSync(tmp, { recursive: true, force: true });
  mkdirSync(tmp);
  writeFileAtomic(join(tmp, 'weights.safetensors'), serializeSafetensors(weights, { format: 'pt' }));
  const moments = new Map<string, F32Entry>();
  for (const [k, e] of opt.expAvg) moments.set(`exp_avg.${k}`, e);
  for (const [k, e] of opt.expAvgSq) moments.set(`exp_avg_sq.${k}`, e);
  writeFileAtomic(join(tmp, 'optimizer.safetensors'), serializeSafetensors(moments));
  writeJsonAtomic(join(tmp, 'state.json'), state);
  const cur = join(root, name);
  const old = join(root, oldName(name));
  rmSync(old, { recursive: true, force: true });
  if (existsSync(cur)) renameSync(cur, old);
  renameSync(tmp, cur);
  rmSync(old, { recursive: true, force: true });
}

export function readCheckpointState(runDir: string, name: CheckpointName): CheckpointState | null {
  const dir = peekCheckpointDir(runDir, name);
  if (!dir) return null;
  return JSON.parse(readFileSync(join(dir, 'state.json'), 'utf8')) as CheckpointState;
}

export function loadCheckpoint(runDir: string, name: CheckpointName): CheckpointData | null {
  const dir = checkpointDir(runDir, name);
  if (!dir) return null;
  const statePath = join(dir, 'state.json');
  const state = JSON.parse(readFileSync(statePath, 'utf8')) as CheckpointState;
  if (state.format !== 'lino-checkpoint') throw new Error(`${statePath}: field 'format' is ${JSON.stringify(state.format)}, expected "lino-checkpoint"`);
  const weightsFile = readSafetensorsFile(join(dir, 'weights.safetensors'));
  const weights = new Map<string, F32Entry>();
  for (const [k, t] of weightsFile.tensors) weights.set(k, { shape: t.shape, data: toFloat32(t) });
  const optFile = readSafetensorsFile(join(dir, 'optimizer.safetensors'));
  const expAvg = new Map<string, F32Entry>();
  const expAvgSq = new Map<string, F32Entry>();
  for (const [k, t] of optFile.tensors) {
    if (k.startsWith('exp_avg_sq.')) expAvgSq.set(k.slice('exp_avg_sq.'.length), { shape: t.shape, data: toFloat32(t) });
    else if (k.startsWith('exp_avg.')) expAvg.set(k.slice('exp_avg.'.length), { shape: t.shape, data: toFloat32(t) });
  }
  return { state, weights, expAvg, expAvgSq };
}

export function weightsPath(runDir: string, name: CheckpointName): string | null {
  const dir = peekCheckpointDir(runDir, name);
  return dir ? join(dir, 'weights.safetensors') : null;
}
