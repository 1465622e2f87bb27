// The LiNO release's checkpoint dict (torch.save of {model_state_dict, optimizer_state_dict,
// scheduler_state_dict, epoch, best_val_rel, args | config, x_normalizer, y_normalizer}) read
// into the workbench's terms: float32 weights under the release's names, the architecture
// (from the keys and shapes, cross-checked against args), the scalar normalizers, and the
// AdamW moments when they map one-to-one onto the parameters. A bare state_dict is accepted too.
import { closeSync, readSync } from 'node:fs';
import { openUserFile } from '../util/user-file';
import { basename } from 'node:path';
import { inferLinoConfigFromShapes } from '../model/lino/infer-config';
import type { Component } from '../model/lino/config';
import type { F32Entry, SafetensorsFile } from './safetensors';
import { isTensor, looksLikeZip, readTorchCheckpointFile, toJson, type TorchTensor } from './torch-checkpoint';
import { typeName, type PyDict, type PyValue } from './torch-pickle';
import type { CheckpointReply } from './release-checkpoint-worker';
import { callWorker } from '../util/workers';

type Stats = { mean: number; std: number };

export interface ReleaseCheckpoint {
  source: string;
  weights: Map<string, F32Entry>;
  model: { width: number; depth: number; scattering: 'efficient' | 'full'; components: Component[] };
  inChannels: number;
  outChannels: number;
  /** Known from efficient scattering's conv kernel only; otherwise the data decide. */
  dims?: 1 | 2;
  /** As the workbench stores it (checkpoint state.json, data manifests). */
  normalizer: { x: Stats; y: Stats; eps: number; applied: boolean };
  epoch: number | null;
  bestValRel: number | null;
  /** The release's `args` (or `config`) dict as JSON. */
  args: Record<string, unknown> | null;
  optimizer: { step: number; lr?: number; weightDecay?: number; beta1?: number; beta2?: number; eps?: number; expAvg: Map<string, F32Entry>; expAvgSq: Map<string, F32Entry> } | null;
  scheduler: { stepSize?: number; gamma?: number; lastEpoch?: number; lr?: number } | null;
  notes: string[];
}

const asDict = (v: PyValue | undefined): PyDict | null => (v instanceof Map ? v : null);
const num = (v: PyValue | undefined): number | undefined => {
  if (typeof v === 'number') return v;
  if (isTensor(v) && v.value.data.length === 1) return Number(v.value.data[0]);
  return undefined;
};
const f32 = (t: TorchTensor): F32Entry => ({ shape: t.shape, data: t.data instanceof Float32Array ? t.data : Float32Array.from(t.data) });

/** A scalar mean/std normalizer; a per-point one (the workbench cannot represent it) is refused. */
function scalarStat(n: PyDict, which: string, k: 'mean' | 'std', source: string): number {
  const v = n.get(k);
  if (isTensor(v) && v.value.data.length !== 1) {
    throw new Error(`${source}: ${which}.${k} is a tensor [${v.value.shape.join(', ')}] (a per-point normalizer); the workbench stores one scalar mean and std per field (main/data/stages/normalize.ts), so this checkpoint cannot be imported`);
  }
  const x = num(v);
  if (x === undefined || !Number.isFinite(x)) throw new Error(`${source}: field '${which}.${k}' is ${isTensor(v) ? 'a non-finite tensor' : typeName(v)}, expected a finite number or a one-element tensor`);
  return x;
}

function readNormalizers(top: PyDict, source: string, notes: string[]): ReleaseCheckpoint['normalizer'] {
  const read = (which: string): { s: Stats; eps: number } | null => {
    const v = top.get(which);
    if (v === undefined || v === null) return null;
    const n = asDict(v);
    if (!n) throw new Error(`${source}: field '${which}' is a ${typeName(v)}, expected a dict {mean, std, eps}`);
    const eps = n.has('eps') ? num(n.get('eps')) : 1e-5;
    if (eps === undefined || !(eps >= 0)) throw new Error(`${source}: field '${which}.eps' is ${typeName(n.get('eps'))}, expected a non-negative number`);
    return { s: { mean: scalarStat(n, which, 'mean', source), std: scalarStat(n, which, 'std', source) }, eps };
  };
  const x = read('x_normalizer');
  const y = read('y_normalizer');
  if (!x && !y) {
    notes.push('no x_normalizer/y_normalizer: the model takes and returns unnormalized fields');
    return { x: { mean: 0, std: 1 }, y: { mean: 0, std: 1 }, eps: 0, applied: false };
  }
  const eps = (x ?? y)!.eps;
  if (x && y && x.eps !== y.eps) throw new Error(`${source}: x_normalizer.eps ${x.eps} differs from y_normalizer.eps ${y.eps}; the workbench uses one eps for both`);
  // A missing side is the identity: (v - 0) / ((1 - eps) + eps).
  const identity = { mean: 0, std: 1 - eps };
  if (!x || !y) notes.push(`no ${x ? 'y' : 'x'}_normalizer: that side is stored as the identity`);
  return { x: x?.s ?? identity, y: y?.s ?? identity, eps, applied: true };
}

function checkArgs(args: Record<string, unknown> | null, inferred: { width: number; depth: number; inChannels: number; outChannels: number; scattering?: string }, source: string): void {
  if (!args) return;
  const want: [string, unknown, number][] = [['num_features', args.num_features ?? args.width, inferred.width], ['depth', args.depth, inferred.depth], ['in_channels', args.in_channels, inferred.inChannels], ['out_channels', args.out_channels, inferred.outChannels]];
  for (const [k, a, w] of want) {
    if (typeof a === 'number' && a !== w) throw new Error(`${source}: args.${k} is ${a} but the state dict's shapes give ${w}; the checkpoint is inconsistent`);
  }
  const st = args.scattering_type;
  if (typeof st === 'string' && inferred.scattering) {
    const kind = st === 'standard' || st === 'full' ? 'full' : st === 'efficient' ? 'efficient' : null;
    if (!kind) throw new Error(`${source}: args.scattering_type is '${st}', expected 'standard' (full), 'full' or 'efficient'`);
    if (kind !== inferred.scattering) throw new Error(`${source}: args.scattering_type is '${st}' but the state dict holds ${inferred.scattering} scattering parameters`);
  }
}

function readOptimizer(top: PyDict, weights: Map<string, F32Entry>, notes: string[]): ReleaseCheckpoint['optimizer'] {
  const o = asDict(top.get('optimizer_state_dict'));
  if (!o) return null;
  const group = asDict(Array.isArray(o.get('param_groups')) ? (o.get('param_groups') as PyValue[])[0] : undefined);
  const betas = group?.get('betas');
  const b = betas && typeof betas === 'object' && 'items' in betas ? betas.items : [];
  const hyper = { lr: num(group?.get('lr')), weightDecay: num(group?.get('weight_decay')), beta1: num(b[0]), beta2: num(b[1]), eps: num(group?.get('eps')) };
  const clean = Object.fromEntries(Object.entries(hyper).filter(([, v]) => v !== undefined)) as Partial<typeof hyper>;
  const state = asDict(o.get('state'));
  const names = [...weights.keys()];
  const expAvg = new Map<string, F32Entry>();
  const expAvgSq = new Map<string, F32Entry>();
  let step = 0;
  // Moments are keyed by parameter index, in model.parameters() order = the state dict's order (LiNO has no buffers).
  const ok = state && state.size === names.length && names.every((name, i) => {
    const s = asDict(state.get(i));
    const m = s?.get('exp_avg');
    const v = s?.get('exp_avg_sq');
    const w = weights.get(name)!;
    if (!isTensor(m) || !isTensor(v) || m.value.shape.join() !== w.shape.join() || v.value.shape.join() !== w.shape.join()) return false;
    expAvg.set(name, f32(m.value));
    expAvgSq.set(name, f32(v.value));
    step = num(s!.get('step')) ?? step;
    return true;
  });
  if (!ok) {
    notes.push('optimizer_state_dict does not map one-to-one onto the parameters: AdamW moments start at zero on resume');
    return { step: 0, ...clean, expAvg: new Map(), expAvgSq: new Map() };
  }
  return { step, ...clean, expAvg, expAvgSq };
}

export function readReleaseCheckpoint(path: string): ReleaseCheckpoint {
  const source = path;
  const top = asDict(readTorchCheckpointFile(path));
  if (!top) throw new Error(`${source}: the pickled object is not a dict, expected the release's checkpoint dict or a state_dict`);
  const bare = [...top.values()].every((v) => isTensor(v));
  const sd = bare ? top : asDict(top.get('model_state_dict'));
  if (!sd) throw new Error(`${source}: field 'model_state_dict' is ${typeName(top.get('model_state_dict'))}, expected a state dict (keys: ${[...top.keys()].join(', ')})`);
  const weights = new Map<string, F32Entry>();
  for (const [k, v] of sd) {
    if (typeof k !== 'string' || !isTensor(v)) throw new Error(`${source}: model_state_dict entry '${String(k)}' is a ${typeName(v)}, expected a tensor`);
    if (v.value.dtype === 'bool' || v.value.dtype === 'int64' || v.value.dtype === 'int32') throw new Error(`${source}: model_state_dict '${k}' is ${v.value.dtype}, expected floating point`);
    weights.set(k, f32(v.value));
  }
  const inf = inferLinoConfigFromShapes(weights, source);
  const argsRaw = bare ? undefined : top.get('args') ?? top.get('config');
  const args = asDict(argsRaw) ? (toJson(argsRaw!, source, top.has('args') ? 'args' : 'config') as Record<string, unknown>) : null;
  checkArgs(args, inf, source);
  const notes = [...inf.notes];
  let scattering = inf.scattering;
  if (!scattering) {
    const st = args?.scattering_type;
    scattering = st === 'standard' || st === 'full' ? 'full' : 'efficient';
  }
  if (inf.components.length === 0) throw new Error(`${source}: no block holds reflection, refraction or scattering parameters: not a LiNO state dict`);
  const epoch = bare ? undefined : num(top.get('epoch'));
  const best = bare ? undefined : num(top.get('best_val_rel'));
  const sch = bare ? null : asDict(top.get('scheduler_state_dict'));
  const lastLr = sch?.get('_last_lr');
  return {
    source: basename(path),
    weights,
    model: { width: inf.width, depth: inf.depth, scattering, components: inf.components as Component[] },
    inChannels: inf.inChannels,
    outChannels: inf.outChannels,
    ...(inf.dims ? { dims: inf.dims } : {}),
    normalizer: bare ? { x: { mean: 0, std: 1 }, y: { mean: 0, std: 1 }, eps: 0, applied: false } : readNormalizers(top, source, notes),
    epoch: epoch !== undefined && Number.isInteger(epoch) && epoch >= 0 ? epoch : null,
    bestValRel: best !== undefined && Number.isFinite(best) ? best : null,
    args,
    optimizer: bare ? null : readOptimizer(top, weights, notes),
    scheduler: sch ? { stepSize: num(sch.get('step_size')), gamma: num(sch.get('gamma')), lastEpoch: num(sch.get('last_epoch')), lr: Array.isArray(lastLr) ? num(lastLr[0]) : undefined } : null,
    notes,
  };
}

/** Float32 weights in the shape loadStateDict takes (what a safetensors file parses to). */
export function weightsAsFile(weights: Map<string, F32Entry>): SafetensorsFile {
  return { tensors: new Map([...weights].map(([k, e]) => [k, { dtype: 'F32' as const, shape: [...e.shape], bytes: new Uint8Array(e.data.buffer, e.data.byteOffset, e.data.byteLength) }])), metadata: {} };
}

/** A .pt / .pth file or any zip (torch.save), as opposed to safetensors. */
export function isTorchFile(path: string): boolean {
  if (/\.(pt|pth|ckpt)$/i.test(path)) return true;
  try {
    // openUserFile: a FIFO named x.safetensors must not block this sniff (the reader then refuses it by name).
    const { fd } = openUserFile(path);
    try {
      const head = new Uint8Array(4);
      readSync(fd, head, 0, 4, 0);
      return looksLikeZip(head);
    } finally {
      closeSync(fd);
    }
  } catch {
    return false;
  }
}

/** How long decoding a checkpoint may take (ms); LINO_CHECKPOINT_DEADLINE_MS overrides it (slow disks, tests). */
export const CHECKPOINT_DEADLINE_MS = Number(process.env.LINO_CHECKPOINT_DEADLINE_MS) > 0 ? Number(process.env.LINO_CHECKPOINT_DEADLINE_MS) : 60_000;
/** The worker's JavaScript heap (tensor data live outside it, in array buffers). */
const WORKER_HEAP_MB = 2048;

/**
 * readReleaseCheckpoint(path) within `deadlineMs`, in a worker with a heap limit, so a file built to
 * take long or grow large (pickle tricks the decoding limits did not foresee) ends as an error naming
 * the file while the engine keeps answering (engine.ping). Without a worker entry (a bundle that did
 * not ship one) it decodes in this thread, where the decoding limits still bound it.
 */
export async function readReleaseCheckpointWithDeadline(path: string, deadlineMs = CHECKPOINT_DEADLINE_MS, signal?: AbortSignal): Promise<ReleaseCheckpoint> {
  const reply = callWorker<CheckpointReply>('checkpoint', { path }, {
    deadlineMs, signal, heapMb: WORKER_HEAP_MB,
    late: () => new Error(`${path}: reading the checkpoint took longer than ${deadlineMs / 1000} s and was stopped (expected a checkpoint that decodes in time)`),
    failed: (why, code) => new Error(`${path}: reading the checkpoint failed: ${why}${code === 'ERR_WORKER_OUT_OF_MEMORY' ? ` (more than ${WORKER_HEAP_MB} MB of decoded values)` : ''}`),
  });
  if (!reply) return readReleaseCheckpoint(path);
  const r = await reply;
  if (r.ok) return r.checkpoint;
  throw new Error(r.message);
}
