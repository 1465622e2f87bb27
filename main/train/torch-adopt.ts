// A PyTorch run whose engine went away (an engine or host restart) while Python trained on: the
// engine that started Python leaves torch/process.json (Python's pid, the plan) and hands the run
// lock to Python's pid. A later engine finds such runs (the lock still names a PyTorch process on
// this host) and adopts each one still training: it follows it with the same follower as a fresh
// run (torch-follow.ts), so the views get the same live events and Stop/Pause work; a run whose
// Python ended while no engine was up is finalized as the follower would have (a traceback makes
// it failed with its tail, else it stays interrupted with its last checkpoint).
import { existsSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { z } from 'zod';
import type { RunHandle, RunStore } from '../runs/run-store';
import { processAlive, readLock, releaseHandedOverLock } from '../runs/run-lock';
import type { RunHooks, RunOutcome } from './runner';
import { adoptedPython, followPython, outcome, pythonTail, TORCH_RUN_DIR, type FollowHooks } from './torch-follow';
import { writeJsonAtomic } from '../util/atomic-file';
import { readUserText } from '../util/user-file';
import { errorMessage } from '../util/error-message';

/** torch/process.json: what a later engine needs to follow the Python process. */
const TorchProcessRecord = z.object({
  pid: z.number().int().positive(),
  host: z.string(),
  python: z.string(),
  device: z.enum(['cpu', 'cuda', 'mps']),
  gpus: z.number().int().min(1),
  batchSize: z.number().int().min(1),
  microBatch: z.number().int().min(1).optional(),
  epochs: z.number().int().min(1),
  stepsPerEpoch: z.number().int().min(1),
  outStart: z.number().int().min(0),
  startedAt: z.string(),
});
export type TorchProcessRecord = z.infer<typeof TorchProcessRecord>;

const recordPath = (run: RunHandle) => join(run.dir, TORCH_RUN_DIR, 'process.json');

export function writeTorchProcessRecord(run: RunHandle, r: TorchProcessRecord): void {
  writeJsonAtomic(recordPath(run), r);
}

/** The record, checked (a run folder may come from elsewhere); throws naming the file and the field. */
function readTorchProcessRecord(run: RunHandle): TorchProcessRecord {
  const path = recordPath(run);
  let raw: unknown;
  try {
    raw = JSON.parse(readUserText(path, { maxBytes: 64 * 1024, what: "the PyTorch process record" }));
  } catch (e) {
    throw new Error(`${path}: cannot be read as JSON (${errorMessage(e)})`);
  }
  const r = TorchProcessRecord.safeParse(raw);
  if (!r.success) throw new Error(`${path}: field '${r.error.issues[0]?.path.join('.')}': ${r.error.issues[0]?.message}`);
  return r.data;
}

/**
 * Whether an earlier engine's Python trains this run, or did until it ended while no engine was
 * up: 'training' / 'ended', with its record; null when the run is no such run (its lock is not
 * handed to a PyTorch process on this host, or names another pid than torch/process.json).
 */
export function torchRunToAdopt(run: RunHandle): { state: 'training' | 'ended'; record: TorchProcessRecord } | null {
  const lock = readLock(run.dir);
  if (!lock || lock === 'unreadable' || lock.host !== hostname() || lock.pid === process.pid || !lock.owner.startsWith('PyTorch')) return null;
  if (!existsSync(recordPath(run))) return null;
  let record: TorchProcessRecord;
  try {
    record = readTorchProcessRecord(run);
  } catch {
    return null;
  }
  if (record.pid !== lock.pid || record.host !== hostname()) return null;
  return { state: processAlive(record.pid) ? 'training' : 'ended', record };
}

/** The runs of `store` an earlier engine's Python trains or trained (see torchRunToAdopt). */
export function torchRunsToAdopt(store: RunStore): { run: RunHandle; state: 'training' | 'ended' }[] {
  const out: { run: RunHandle; state: 'training' | 'ended' }[] = [];
  for (const id of store.ids()) {
    const run = store.open(id);
    const found = torchRunToAdopt(run);
    if (found) out.push({ run, state: found.state });
  }
  return out;
}

/**
 * Follows a run an earlier engine's Python trains (or finalizes one whose Python ended meanwhile)
 * until Python exits; then removes the lock handed to it. Throws when the run is no such run.
 */
export async function adoptTorchRun(run: RunHandle, hooks: FollowHooks & Pick<RunHooks, 'onPlan'> = {}): Promise<RunOutcome> {
  const found = torchRunToAdopt(run);
  if (!found) throw new Error(`run '${run.id}': no PyTorch process of an earlier engine trains it (its train.lock and ${TORCH_RUN_DIR}/process.json do not name one on this host)`);
  const r = found.record;
  const log = (m: string) => {
    run.log(m);
    hooks.onLog?.(m);
  };
  const plan = { batchSize: r.batchSize, ...(r.microBatch ? { microBatch: r.microBatch } : {}), device: r.device, outStart: r.outStart };
  try {
    if (found.state === 'ended') {
      log(`the PyTorch process ${r.pid} (started ${r.startedAt}) ended while no engine followed it`);
      return outcome(run, plan, null, pythonTail(join(run.dir, TORCH_RUN_DIR, 'python.log'), r.outStart), log);
    }
    hooks.onPlan?.(
      { backend: `torch-${r.device}`, capBytes: 0, batchSize: r.batchSize, microBatch: r.batchSize, estimateBytes: 0, perSampleBytes: 0, fixedBytes: 0, fits: true, message: `PyTorch on ${r.device}${r.gpus > 1 ? ` x${r.gpus}` : ''}, batch ${r.batchSize} (process ${r.pid}, adopted)` },
      { epochs: r.epochs, stepsPerEpoch: r.stepsPerEpoch, totalSteps: r.epochs * r.stepsPerEpoch },
    );
    log(`following the PyTorch process ${r.pid} (${r.python}, started ${r.startedAt} by an earlier engine)`);
    const paused = run.readStatus().state === 'paused';
    return await followPython(run, hooks, adoptedPython(run.dir, r.pid), { ...plan, paused }, log);
  } finally {
    releaseHandedOverLock(run.dir, r.pid);
  }
}
