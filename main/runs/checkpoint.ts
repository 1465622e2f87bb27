// Checkpoints: runs/<id>/checkpoints/{last,best}/ each hold
//   weights.safetensors   parameters only, the release's state_dict names (loads in PyTorch);
//                         its metadata holds the model config and normalizers (weightsMetadata)
//   optimizer.safetensors AdamW moments: exp_avg.<name>, exp_avg_sq.<name>
//   state.json            epoch, step, optimizer step and hyper-parameters, scheduler, RNG,
//                         normalizer statistics, best validation, backend, the sha256 of the two
//                         other files (written last; validated and checked on load)
// A checkpoint is written into a sibling temporary folder, every file fsynced, then swapped in by
// renames; an interrupted swap is repaired on the next read, so a reader always finds a complete
// checkpoint (the new one or the previous one).
import { existsSync, mkdirSync, readFileSync, renameSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { createHash } from 'node:crypto';
import { z } from 'zod';
import { formatZodIssues } from '../util/zod-issues';
import { writeFileAtomic, writeJsonAtomic } from '../util/atomic-file';
import { parseSafetensors, serializeSafetensors, toFloat32, type F32Entry } from './safetensors';
import { errorMessage } from '../util/error-message';
import { removeOwnTree } from '../util/remove-tree';

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
  /** sha256 (hex) of weights.safetensors and optimizer.safetensors; absent in older checkpoints. */
  files?: Record<string, string>;
}

const count = z.number().int().min(0);
const finite = z.number().finite();
const bestSchema = z.object({ epoch: count, valRelL2: finite, testRelL2: finite.optional(), testRelL2Decoded: finite.optional() }).nullable();

/** state.json as written by saveCheckpoint: integer counters, finite numbers. */
export const CheckpointStateSchema = z.object({
  format: z.literal('lino-checkpoint'),
  version: z.literal(1),
  epoch: count,
  globalStep: count,
  optimizer: z.object({ name: z.literal('adamw'), step: count, lr: finite, weightDecay: finite, beta1: finite, beta2: finite, eps: finite }).loose(),
  scheduler: z.object({ name: z.literal('steplr'), lastEpoch: z.number().int(), lr: finite, stepSize: z.number().int().min(1), gamma: finite }).loose(),
  rng: z.unknown(),
  normalizer: z.unknown(),
  best: bestSchema,
  backend: z.string(),
  savedAt: z.string(),
  metricsRecords: count,
  files: z.record(z.string(), z.string().regex(/^[0-9a-f]{64}$/)).optional(),
}).loose();

export class CheckpointError extends Error {
  constructor(readonly file: string, message: string) {
    super(`${file}: ${message}`);
    this.name = 'CheckpointError';
  }
}

/** Parses and validates a state.json; errors name the file and the field. */
export function parseCheckpointState(text: string, path: string): CheckpointState {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (e) {
    throw new CheckpointError(path, `not valid JSON (${errorMessage(e)}); the checkpoint is damaged (truncated?)`);
  }
  const r = CheckpointStateSchema.safeParse(raw);
  if (!r.success) throw new CheckpointError(path, formatZodIssues(r.error.issues, raw));
  return r.data as CheckpointState;
}

const sha256 = (b: Uint8Array) => createHash('sha256').update(b).digest('hex');

/** The first non-finite value of a state dict, for a message; null when all are finite. */
export function firstNonFinite(entries: Map<string, F32Entry>): { name: string; index: number; value: number } | null {
  for (const [name, e] of entries) {
    const d = e.data;
    for (let i = 0; i < d.length; i++) if (!Number.isFinite(d[i]!)) return { name, index: i, value: d[i]! };
  }
  return null;
}

export interface CheckpointData {
  state: CheckpointState;
  weights: Map<string, F32Entry>;
  expAvg: Map<string, F32Entry>;
  expAvgSq: Map<string, F32Entry>;
}

const tmpName = (name: CheckpointName) => `.${name}.tmp`;
const oldName = (name: CheckpointName) => `.${name}.old`;

/** Removes one of a run's checkpoint folders (best, last and their .tmp/.old swap folders), nothing else. */
function drop(path: string): void {
  removeOwnTree(dirname(path), basename(path), { names: /^(best|last|\.(best|last)\.(tmp|old))$/, what: 'a checkpoint folder' });
}

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
    drop(old);
    drop(tmp);
    return cur;
  }
  // `cur` missing or partial: the crash came between the two renames, or before the first.
  if (complete(tmp)) {
    drop(cur);
    renameSync(tmp, cur);
    drop(old);
    return cur;
  }
  if (complete(old)) {
    drop(cur);
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

/**
 * `weights`: the model's stateDict (read by the caller: GPU backends read asynchronously); `meta`:
 * the weights file's safetensors metadata (weightsMetadata: model config and normalizers).
 */
export function saveCheckpoint(runDir: string, name: CheckpointName, weights: Map<string, F32Entry>, opt: { expAvg: Map<string, F32Entry>; expAvgSq: Map<string, F32Entry> }, state: CheckpointState, meta: Record<string, string> = { format: 'pt' }): void {
  const root = join(runDir, 'checkpoints');
  mkdirSync(root, { recursive: true });
  checkpointDir(runDir, name); // repair first, so the swap below starts from a clean state
  const tmp = join(root, tmpName(name));
  drop(tmp);
  mkdirSync(tmp);
  const moments = new Map<string, F32Entry>();
  for (const [k, e] of opt.expAvg) moments.set(`exp_avg.${k}`, e);
  for (const [k, e] of opt.expAvgSq) moments.set(`exp_avg_sq.${k}`, e);
  // Never keep non-finite weights as a good state: the previous checkpoint stays in place.
  const bad = firstNonFinite(weights) ?? firstNonFinite(moments);
  if (bad) throw new NonFiniteWeightsError(state.epoch, bad.name, bad.value);
  const wBytes = serializeSafetensors(weights, meta);
  const oBytes = serializeSafetensors(moments);
  writeFileAtomic(join(tmp, 'weights.safetensors'), wBytes);
  writeFileAtomic(join(tmp, 'optimizer.safetensors'), oBytes);
  writeJsonAtomic(join(tmp, 'state.json'), { ...state, files: { 'weights.safetensors': sha256(wBytes), 'optimizer.safetensors': sha256(oBytes) } });
  const cur = join(root, name);
  const old = join(root, oldName(name));
  drop(old);
  if (existsSync(cur)) renameSync(cur, old);
  renameSync(tmp, cur);
  drop(old);
}

export class NonFiniteWeightsError extends Error {
  constructor(readonly epoch: number, readonly tensor: string, value: number) {
    super(`non-finite weights (${tensor} holds ${value}) at the end of epoch ${epoch}; not saved as a checkpoint`);
    this.name = 'NonFiniteWeightsError';
  }
}

export function readCheckpointState(runDir: string, name: CheckpointName): CheckpointState | null {
  const dir = peekCheckpointDir(runDir, name);
  if (!dir) return null;
  const path = join(dir, 'state.json');
  return parseCheckpointState(readFileSync(path, 'utf8'), path);
}

/** Reads a checkpoint file and checks it against the sha256 that state.json recorded for it. */
function readVerified(dir: string, file: string, state: CheckpointState): Uint8Array {
  const path = join(dir, file);
  const bytes = readFileSync(path);
  const want = state.files?.[file];
  if (want !== undefined && sha256(bytes) !== want) {
    throw new CheckpointError(path, `sha256 ${sha256(bytes).slice(0, 16)}... does not match the ${want.slice(0, 16)}... recorded in ${join(dir, 'state.json')} (the file was damaged or changed)`);
  }
  return bytes;
}

export function loadCheckpoint(runDir: string, name: CheckpointName): CheckpointData | null {
  const dir = checkpointDir(runDir, name);
  if (!dir) return null;
  const statePath = join(dir, 'state.json');
  const state = parseCheckpointState(readFileSync(statePath, 'utf8'), statePath);
  const weightsFile = parseSafetensors(readVerified(dir, 'weights.safetensors', state), join(dir, 'weights.safetensors'));
  const weights = new Map<string, F32Entry>();
  for (const [k, t] of weightsFile.tensors) weights.set(k, { shape: t.shape, data: toFloat32(t) });
  const optFile = parseSafetensors(readVerified(dir, 'optimizer.safetensors', state), join(dir, 'optimizer.safetensors'));
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
