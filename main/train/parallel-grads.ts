// Data-parallel gradients for training runs (config.workers > 1). The coordinator (the thread that
// runs the Trainer) keeps the master parameters in its own model and computes the first share of
// every batch itself; workers - 1 worker threads, each with its own tfjs backend and model replica,
// compute the other contiguous shares at the same parameters (sent with every step). The shares'
// gradients add up to the whole batch's (each share weights its terms by the whole batch size), so
// the Trainer clips, steps AdamW and StepLR exactly as with one worker: same optimizer state, same
// checkpoints, validation on the coordinator's model.
import * as tf from '../ops/tf';
import type { NeuralOperator } from '../model/types';
import type { Worker } from 'node:worker_threads';
import { spawnWorker } from '../util/workers';
import type { TrainInitMsg, TrainStepMsg } from './data-parallel-worker';
import type { GradOptions, ShareGrads } from './batch-grads';

export const MAX_WORKERS = 8;

/** A data-parallel worker thread (main/util/workers.ts starts it from the sources or the bundle). */
function dataParallelWorker(): Worker {
  const w = spawnWorker('data-parallel', undefined);
  if (!w) throw new Error('data-parallel training needs data-parallel-worker.js beside the engine bundle, and this build did not ship it');
  return w;
}

interface Pending { resolve: (v: any) => void; reject: (e: Error) => void }

export class WorkerHandle {
  private pending: Pending | undefined;
  /** Set once the thread is gone: later requests fail at once instead of waiting forever. */
  exited: string | undefined;
  constructor(readonly worker: Worker, readonly label = 'data-parallel worker') {
    worker.on('message', (m: any) => {
      const p = this.pending;
      this.pending = undefined;
      if (!p) return;
      if (m.type === 'error') p.reject(new Error(`${this.label}: ${m.message}`));
      else p.resolve(m);
    });
    worker.on('error', (e) => {
      this.exited ??= `${this.label} crashed: ${e.message}`;
      this.pending?.reject(new Error(this.exited));
      this.pending = undefined;
    });
    // a worker that dies without an error event (e.g. killed for memory) must not hang the step
    worker.on('exit', (code) => {
      this.exited ??= `${this.label} exited with code ${code}`;
      this.pending?.reject(new Error(this.exited));
      this.pending = undefined;
    });
  }
  request(msg: unknown, transfer: ArrayBuffer[] = []): Promise<any> {
    return new Promise((resolve, reject) => {
      if (this.exited) return reject(new Error(this.exited));
      this.pending = { resolve, reject };
      this.worker.postMessage(msg, transfer);
    });
  }
}

type Gathered = { data: Float32Array; shape: number[] };

/** Splits B rows into `parts` contiguous shares, the first ones one larger when B % parts != 0. */
export function splitShares(B: number, parts: number): { start: number; n: number }[] {
  const W = Math.max(1, Math.min(parts, B));
  const out: { start: number; n: number }[] = [];
  let start = 0;
  for (let w = 0; w < W; w++) {
    const n = Math.floor(B / W) + (w < B % W ? 1 : 0);
    out.push({ start, n });
    start += n;
  }
  return out;
}

export class ParallelGradients {
  /** Compute time of each worker thread in the last step (ms). */
  lastWorkerMs: number[] = [];
  private closed = false;

  private constructor(private readonly handles: WorkerHandle[]) {}

  /** Total threads computing a step: the coordinator plus the helper threads. */
  get workers(): number {
    return this.handles.length + 1;
  }

  /** Starts workers - 1 helper threads with the run's model on `backend`. */
  static async create(workers: number, kind: string, modelConfig: unknown, backend: string, grad: GradOptions): Promise<ParallelGradients> {
    const handles: WorkerHandle[] = [];
    for (let i = 1; i < workers; i++) handles.push(new WorkerHandle(dataParallelWorker(), `data-parallel worker ${i}`));
    const pool = new ParallelGradients(handles);
    const init: TrainInitMsg = { type: 'train-init', kind, config: modelConfig, backend, grad };
    try {
      await Promise.all(handles.map((h) => h.request(init)));
    } catch (e) {
      await pool.close();
      throw e;
    }
    return pool;
  }

  /**
   * The whole batch's gradient: shares 1.. go to the helper threads (posted first), share 0 is
   * computed here by `own` meanwhile, then the helpers' gradients are added in share order.
   */
  async compute(model: NeuralOperator, rows: readonly number[], gather: (rows: readonly number[]) => { x: Gathered; y: Gathered }, own: (rows: readonly number[]) => Promise<ShareGrads>): Promise<ShareGrads> {
    const shares = splitShares(rows.length, this.handles.length + 1);
    const params: Record<string, Float32Array> = {};
    if (shares.length > 1) for (const [k, v] of model.variables) params[k] = (await v.data()) as Float32Array;
    const jobs = shares.slice(1).map((s, i) => {
      const { x, y } = gather(rows.slice(s.start, s.start + s.n));
      const msg: TrainStepMsg = { type: 'train-step', params, x: x.data, xShape: x.shape, y: y.data, yShape: y.shape, batchSize: rows.length };
      return this.handles[i]!.request(msg, [x.data.buffer as ArrayBuffer, y.data.buffer as ArrayBuffer]);
    });
    // a rejected helper must not go unhandled while the coordinator computes its share
    const settled = Promise.allSettled(jobs);
    let mine: ShareGrads;
    try {
      mine = await own(rows.slice(0, shares[0]!.n));
    } catch (e) {
      await settled;
      throw e;
    }
    const results = await settled;
    const failed = results.find((r) => r.status === 'rejected') as PromiseRejectedResult | undefined;
    if (failed) {
      for (const g of mine.grads.values()) g.dispose();
      throw failed.reason instanceof Error ? failed.reason : new Error(String(failed.reason));
    }
    const done = results.map((r) => (r as PromiseFulfilledResult<any>).value);
    this.lastWorkerMs = done.map((r) => r.ms as number);
    let { loss, relSum } = mine;
    const grads = mine.grads;
    for (const r of done) {
      loss += r.loss;
      relSum += r.relSum;
      for (const [k, arr] of Object.entries(r.grads as Record<string, Float32Array>)) {
        const prev = grads.get(k)!;
        const sum = tf.tidy(() => tf.add(prev, tf.tensor(arr, prev.shape, 'float32')));
        prev.dispose();
        grads.set(k, sum);
      }
    }
    return { grads, loss, relSum };
  }

  /** Terminates the helper threads (idempotent). */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await Promise.all(this.handles.map((h) => h.worker.terminate().catch(() => 0)));
  }

  /** Tests: kills helper `i` as a crash would. */
  killForTest(i: number): Promise<number> {
    return this.handles[i]!.worker.terminate();
  }
}
