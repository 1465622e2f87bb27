// Data-parallel training step across worker threads, each with its own tfjs backend (wasm runs
// single-threaded in Node, so this is how a step uses every core). The batch is split between
// workers; each returns the gradient of its share weighted by n_w / B, the coordinator sums them
// (= the full-batch gradient), applies AdamW to the master parameters (Float32Arrays) and sends
// the new parameters with the next step. Minimal: for the model bench; training owns this folder.
import { Worker } from 'node:worker_threads';
import { AdamW, type AdamWOptions } from './adamw';
import type { InitMsg, StepMsg } from './data-parallel-worker';

export interface DataParallelOptions {
  workers: number;
  backend?: string;
  /** Largest per-worker micro-batch (gradient accumulation above it). */
  microBatch?: number;
  adamw?: AdamWOptions;
}

// Run from TypeScript sources (tsx), a worker needs tsx's loader registered in its own thread
// first; a bundled build ships the worker as .js and loads it directly.
export function spawnWorker(): Worker {
  const ts = new URL('./data-parallel-worker.ts', import.meta.url);
  if (!import.meta.url.endsWith('.ts')) return new Worker(new URL('./data-parallel-worker.js', import.meta.url));
  const api = import.meta.resolve('tsx/esm/api');
  const boot = `import(${JSON.stringify(api)}).then((m) => { m.register(); return import(${JSON.stringify(ts.href)}); })`;
  return new Worker(boot, { eval: true });
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

export class DataParallelTrainer {
  readonly params: Map<string, Float32Array>;
  readonly optimizer: AdamW;
  private dirty = true;
  /** Compute time of each worker in the last step (ms). */
  lastWorkerMs: number[] = [];

  private constructor(private readonly handles: WorkerHandle[], params: Map<string, Float32Array>, private readonly opts: DataParallelOptions) {
    this.params = params;
    this.optimizer = new AdamW(params, opts.adamw);
  }

  /** initial: starting parameters keyed by state_dict name (e.g. from a model's variables). */
  static async create(kind: string, config: unknown, initial: ReadonlyMap<string, Float32Array>, opts: DataParallelOptions): Promise<DataParallelTrainer> {
    const handles: WorkerHandle[] = [];
    for (let i = 0; i < opts.workers; i++) handles.push(new WorkerHandle(spawnWorker()));
    const init: InitMsg = { type: 'init', kind, config, ...(opts.backend ? { backend: opts.backend } : {}) };
    await Promise.all(handles.map((h) => h.request(init)));
    const params = new Map([...initial].map(([k, v]) => [k, Float32Array.from(v)]));
    return new DataParallelTrainer(handles, params, opts);
  }

  /** Full-batch gradient of mean((f(x) - y)^2) at the current parameters; x/y row-major, batch first. */
  async gradients(x: Float32Array, xShape: number[], y: Float32Array, yShape: number[]): Promise<{ loss: number; grads: Map<string, Float32Array> }> {
    const B = xShape[0]!;
    const W = Math.min(this.handles.length, B);
    const xPer = x.length / B;
    const yPer = y.length / B;
    const params = this.dirty ? Object.fromEntries(this.params) : undefined;
    const jobs: Promise<any>[] = [];
    let start = 0;
    for (let w = 0; w < W; w++) {
      const n = Math.floor(B / W) + (w < B % W ? 1 : 0);
      const msg: StepMsg = {
        type: 'step', ...(params ? { params } : {}),
        x: x.slice(start * xPer, (start + n) * xPer), xShape: [n, ...xShape.slice(1)],
        y: y.slice(start * yPer, (start + n) * yPer), yShape: [n, ...yShape.slice(1)],
        microBatch: Math.min(n, this.opts.microBatch ?? n), scale: n / B,
      };
      jobs.push(this.handles[w]!.request(msg, [msg.x.buffer as ArrayBuffer, msg.y.buffer as ArrayBuffer]));
      start += n;
    }
    const results = await Promise.all(jobs);
    this.lastWorkerMs = results.map((r) => r.ms as number);
    this.dirty = false;
    const grads = new Map<string, Float32Array>();
    let loss = 0;
    for (const r of results) {
      loss += r.loss;
      for (const [k, g] of Object.entries(r.grads as Record<string, Float32Array>)) {
        const acc = grads.get(k);
        if (!acc) grads.set(k, g);
        else for (let i = 0; i < acc.length; i++) acc[i]! += g[i]!;
      }
    }
    return { loss, grads };
  }

  /** One training step: gradients across workers, then AdamW on the master parameters. */
  async step(x: Float32Array, xShape: number[], y: Float32Array, yShape: number[]): Promise<number> {
    const { loss, grads } = await this.gradients(x, xShape, y, yShape);
    this.optimizer.applyArrays(this.params, grads);
    this.dirty = true;
    return loss;
  }

  async close(): Promise<void> {
    await Promise.all(this.handles.map((h) => h.worker.terminate()));
  }
}
