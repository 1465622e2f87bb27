// Import of a PyTorch checkpoint (the release's best_model.pt / last_model.pt, or a bare
// state_dict) as a run of the workspace: runs/<id>/ with a config.json (the architecture from the
// checkpoint, the data spec when one is given), checkpoints/best and checkpoints/last holding the
// imported state as the run store writes them, metrics.jsonl with one epoch record (the weights
// evaluated on the data; empty without data), status 'done' and an
// events.log line naming the file. With data, the data's channels and dimensions are checked
// against the checkpoint before anything is written; without, the run lists but the views that
// need data say that config.json has no 'data'.
import { mkdirSync, writeFileSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { dirname, join, resolve } from 'node:path';
import type { z } from 'zod';
import { TrainConfig } from './config';
import { type DataSpec } from '../data/data-spec';
import { formatZodIssues } from '../util/zod-issues';
import type { ReleaseCheckpoint } from '../runs/release-checkpoint';
import { readReleaseCheckpointWithDeadline } from '../runs/release-checkpoint';
import { serializeSafetensors, type F32Entry } from '../runs/safetensors';
import type { CheckpointName, CheckpointState } from '../runs/checkpoint';
import { RUN_FOLDER, type RunHandle, type RunStore } from '../runs/run-store';
import { writeFileAtomic, writeJsonAtomic } from '../util/atomic-file';
import { removeOwnTree } from '../util/remove-tree';
import { loadTrainData } from './data-source';
import { autoregressiveSpec, type TrainData } from './data';
import { importEpochRecord } from './import-metrics';
import type { EpochRecord } from './trainer';
import { modelConfigFor } from './trainer';
import { Rng } from './rng';

export interface ImportOptions {
  /** Validated with the run's config (defaults filled in). */
  data?: z.input<typeof DataSpec>;
  name?: string;
  /** Where the data spec's dataset ids resolve. */
  workspace?: string;
  signal?: AbortSignal;
}

export interface ImportResult {
  run: RunHandle;
  checkpoint: ReleaseCheckpoint;
  notes: string[];
}

const int = (v: unknown, min: number) => (typeof v === 'number' && Number.isInteger(v) && v >= min ? v : undefined);
const pos = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) && v > 0 ? v : undefined);

/** The run's config.json from the checkpoint (args fill what the workbench protocol records). */
function runConfig(ck: ReleaseCheckpoint, path: string, o: ImportOptions): Record<string, unknown> {
  const a = ck.args ?? {};
  const epochs = Math.max(ck.epoch ?? 1, int(a.epochs, 1) ?? 0, 1);
  const opt = ck.optimizer;
  const cfg: Record<string, unknown> = {
    name: o.name ?? `imported ${ck.source}`,
    model: { kind: 'lino', ...ck.model },
    ...(o.data ? { data: o.data } : {}),
    epochs,
    ...(int(a.batch_size, 1) ? { batchSize: a.batch_size } : {}),
    ...(int(a.seed, -(2 ** 31)) !== undefined ? { seed: a.seed } : {}),
    optimizer: {
      ...(pos(opt?.lr ?? a.lr) ? { lr: opt?.lr ?? a.lr } : {}),
      ...(typeof (opt?.weightDecay ?? a.weight_decay) === 'number' ? { weightDecay: opt?.weightDecay ?? a.weight_decay } : {}),
    },
    ...(int(ck.scheduler?.stepSize, 1) && pos(ck.scheduler?.gamma) ? { schedule: { stepSize: ck.scheduler!.stepSize, gamma: ck.scheduler!.gamma } } : {}),
  };
  // Validate what can be validated: everything but a missing data spec.
  const r = TrainConfig.safeParse(o.data ? cfg : { ...cfg, data: { kind: 'dataset', id: 'placeholder' } });
  if (!r.success) throw new Error(`${path}: the run configuration built from the checkpoint is invalid: ${formatZodIssues(r.error.issues, cfg)}`);
  return cfg;
}

/** Refuses data whose channels or dimensions do not fit the checkpoint's model. */
async function checkData(ck: ReleaseCheckpoint, path: string, cfg: Record<string, unknown>, o: ImportOptions): Promise<{ resolved: Record<string, unknown>; data: TrainData }> {
  const parsed = TrainConfig.parse(cfg);
  const data = await loadTrainData(parsed.data, { workspace: o.workspace, signal: o.signal });
  const mc = modelConfigFor(parsed, data);
  const problems: string[] = [];
  if (mc.inChannels !== ck.inChannels) problems.push(`the data give ${mc.inChannels} input channels (coordinates included), the checkpoint's lifting takes ${ck.inChannels}`);
  if (mc.outChannels !== ck.outChannels) problems.push(`the data give ${mc.outChannels} output channels, the checkpoint's projection gives ${ck.outChannels}`);
  if (ck.dims && mc.dims !== ck.dims) problems.push(`the data are ${mc.dims}D, the checkpoint's scattering kernel is ${ck.dims}D`);
  if (problems.length) throw new Error(`${path}: does not fit the data (${JSON.stringify(parsed.data)}): ${problems.join('; ')}`);
  const m = data.manifest;
  const resolved = { id: m.id ?? null, contentHash: m.contentHash ?? null, grid: m.grid, counts: { train: data.train.x.shape[0], val: data.val.x.shape[0], test: data.test?.x.shape[0] ?? 0 }, normalization: m.normalization, autoregressive: autoregressiveSpec(data) };
  return { resolved, data };
}

const sha256 = (b: Uint8Array) => createHash('sha256').update(b).digest('hex');

/** Writes checkpoints/<name>/ in the run store's layout (weights, optimizer moments, state.json last). */
function writeCheckpoint(runDir: string, name: CheckpointName, ck: ReleaseCheckpoint, state: CheckpointState): void {
  const dir = join(runDir, 'checkpoints', name);
  mkdirSync(dir, { recursive: true });
  const zeros = (m: Map<string, F32Entry>) => new Map([...m].map(([k, e]) => [k, { shape: e.shape, data: new Float32Array(e.data.length) }]));
  const moments = new Map<string, F32Entry>();
  const hasMoments = (ck.optimizer?.expAvg.size ?? 0) > 0;
  for (const [k, e] of hasMoments ? ck.optimizer!.expAvg : zeros(ck.weights)) moments.set(`exp_avg.${k}`, e);
  for (const [k, e] of hasMoments ? ck.optimizer!.expAvgSq : zeros(ck.weights)) moments.set(`exp_avg_sq.${k}`, e);
  const w = serializeSafetensors(ck.weights, { format: 'pt' });
  const m = serializeSafetensors(moments);
  writeFileAtomic(join(dir, 'weights.safetensors'), w);
  writeFileAtomic(join(dir, 'optimizer.safetensors'), m);
  writeJsonAtomic(join(dir, 'state.json'), { ...state, files: { 'weights.safetensors': sha256(w), 'optimizer.safetensors': sha256(m) } });
}

function checkpointState(ck: ReleaseCheckpoint, cfg: TrainConfig, path: string): CheckpointState & { imported: unknown } {
  const epoch = ck.epoch ?? 0;
  const o = ck.optimizer;
  const s = ck.scheduler;
  return {
    format: 'lino-checkpoint',
    version: 1,
    epoch,
    globalStep: o?.step ?? 0,
    optimizer: { name: 'adamw', step: o?.expAvg.size ? o.step : 0, lr: o?.lr ?? cfg.optimizer.lr, weightDecay: o?.weightDecay ?? cfg.optimizer.weightDecay, beta1: o?.beta1 ?? cfg.optimizer.beta1, beta2: o?.beta2 ?? cfg.optimizer.beta2, eps: o?.eps ?? cfg.optimizer.eps },
    scheduler: { name: 'steplr', lastEpoch: s?.lastEpoch ?? epoch, lr: s?.lr ?? o?.lr ?? cfg.optimizer.lr, stepSize: cfg.schedule.stepSize, gamma: cfg.schedule.gamma },
    rng: new Rng(cfg.seed + epoch).getState(),
    normalizer: ck.normalizer,
    best: ck.bestValRel !== null ? { epoch, valRelL2: ck.bestValRel } : null,
    backend: 'pytorch',
    savedAt: new Date().toISOString(),
    metricsRecords: 0,
    imported: { from: path, args: ck.args, notes: ck.notes },
  };
}

/** Imports `path` into `store`; the run folder is removed again if anything fails half-way. */
export async function importTorchCheckpoint(store: RunStore, path: string, o: ImportOptions = {}): Promise<ImportResult> {
  const abs = resolve(path);
  // In a worker with a deadline: the engine answers (ping, other calls) while a checkpoint decodes.
  const ck = await readReleaseCheckpointWithDeadline(abs, undefined, o.signal);
  const cfg = runConfig(ck, abs, o);
  const notes = [...ck.notes];
  let record: EpochRecord | null = null;
  if (o.data) {
    const { resolved, data } = await checkData(ck, abs, cfg, o);
    cfg.resolvedData = resolved;
    // Gates and the curves read metrics.jsonl: one record, the imported weights on these data.
    record = await importEpochRecord(TrainConfig.parse(cfg), data, ck, abs);
  } else notes.push("no data given: config.json has no 'data', so the views that evaluate the run (Fields, Gates, Rollout) refuse until it is imported again with --data");
  const run = store.create(cfg);
  try {
    const parsed = TrainConfig.parse(o.data ? cfg : { ...cfg, data: { kind: 'dataset', id: 'placeholder' } });
    const state = { ...checkpointState(ck, parsed, abs), metricsRecords: record ? 1 : 0 };
    writeCheckpoint(run.dir, 'best', ck, state);
    writeCheckpoint(run.dir, 'last', ck, state);
    writeFileSync(run.metricsPath, record ? `${JSON.stringify(record)}\n` : '');
    run.writeStatus({ state: 'done', pid: null, backend: 'pytorch', ...(ck.epoch !== null ? { epoch: ck.epoch } : {}) });
    run.log(`imported from ${abs} (PyTorch checkpoint${ck.epoch !== null ? `, epoch ${ck.epoch}` : ''}) as checkpoints/best and checkpoints/last`);
    for (const n of notes) run.log(`import note: ${n}`);
  } catch (e) {
    removeOwnTree(dirname(run.dir), run.id, RUN_FOLDER);
    throw e;
  }
  return { run, checkpoint: ck, notes };
}
