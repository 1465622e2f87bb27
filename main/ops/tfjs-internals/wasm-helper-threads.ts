// Our heap kernels split over helper threads of our own, on the threaded build's shared memory
// (wasm-threads.ts starts that build when LINO_WASM_THREADS asks for 2 or more threads). Each
// helper (wasm-helper-worker.ts) instantiates the kernels' shared-memory binaries on the backend's
// memory; a job cuts a kernel's rows in chunks that every thread, this one too, claims until none
// is left (wasm-helper-protocol.ts). Written here because tfjs's pool (pthreadpool under XNNPACK)
// runs only tfjs's own kernels, and measured inside a training step it lost on products under
// 24 Mflop (wasm-threads.ts); these helpers spin between jobs instead of sleeping, and a helper
// the system deschedules (on 2 cores: a compile or GC thread, or the host) costs one chunk, not its share.
import { MessageChannel, receiveMessageOnPort, type MessagePort, type Worker } from 'node:worker_threads';
import { hasWorker, spawnWorker } from '../../util/workers';
import { wasmBytes, webAssembly } from '../../util/webassembly';
import { errorMessage } from '../../util/error-message';
import { heapKernels, type HeapBackend, type HeapBinaries } from './wasm-heap';
import { COMPLETED, FAILED, HELPED, JOB, MAX_ARGS, MAX_CHUNKS, READY, SEQ, STOP, WORDS, claimChunks, postJob } from './wasm-helper-protocol';
import { wasmThreadsRunning } from './wasm-threads';

let helperShipped: boolean | null = null;
/** Whether heap kernels split over helpers here: the threaded build runs, and the helper's entry shipped. */
export const helpersRun = (): boolean => wasmThreadsRunning() > 1 && (helperShipped ??= hasWorker('wasm-helper')); // asked per product: the bundle's file check once

/**
 * How long a helper spins for the next job before it sleeps (ms). Short: a thread spinning beside
 * the engine slowed its single-threaded DeepONet step 7.2 -> 8.0-8.5 ms (it competes with V8's
 * compile and GC threads on 2 cores), and a job the helper wakes late for costs little, since this
 * thread takes the chunks meanwhile. 0.1 and 2 ms measured alike in steady training steps.
 */
export const HELPER_SPIN_MS = 0.1;
/**
 * Kernels over rows of values (elementwise or per row: GELU, LayerNorm's forward) are cut over the
 * helpers from this many values.
 */
export const SPLIT_MIN_VALUES = 32768;
/** Chunks a job is cut into per thread (1, 2, 4 and 8 measured alike; more bound what a descheduled helper holds up). */
const CHUNKS_PER_THREAD = 4;
/** Helpers that have not finished a chunk they hold by then are taken as lost (ms). */
const ANSWER_MS = 60_000;

interface Helpers {
  workers: Worker[];
  ports: MessagePort[];
  ctl: Int32Array;
  seq: number;
  jobs: Map<HeapBinaries, Map<string, number>>;
  jobCount: number;
  lost: boolean;
}

const helpersOf = new WeakMap<object, Helpers | null>();
const modules = new Map<HeapBinaries, object>();

function startHelpers(memory: unknown, n: number): Helpers | null {
  const control = new SharedArrayBuffer(4 * WORDS);
  const h: Helpers = { workers: [], ports: [], ctl: new Int32Array(control), seq: 0, jobs: new Map(), jobCount: 0, lost: false };
  for (let i = 0; i < n; i++) {
    const { port1, port2 } = new MessageChannel();
    const worker = spawnWorker('wasm-helper', { memory, control, port: port2, spinMs: HELPER_SPIN_MS }, { transferList: [port2] });
    if (!worker) return null;
    worker.on('error', () => { h.lost = true; });
    worker.on('exit', () => { h.lost = true; });
    worker.unref();
    port1.unref();
    h.workers.push(worker);
    h.ports.push(port1);
  }
  return h;
}

/** This backend's helpers once they all serve (started on the first call; none on the single-threaded build). */
function readyHelpers(be: HeapBackend): Helpers | null {
  let h = helpersOf.get(be.wasm);
  if (h === undefined) {
    const memory = be.wasm.wasmMemory;
    const shared = typeof SharedArrayBuffer !== 'undefined' && memory?.buffer instanceof SharedArrayBuffer;
    const n = shared ? wasmThreadsRunning() - 1 : 0;
    helpersOf.set(be.wasm, (h = n > 0 ? startHelpers(memory, n) : null));
  }
  return h && !h.lost && Atomics.load(h.ctl, READY) === h.workers.length ? h : null;
}

/** The helpers' id for export `name` of `binaries`, posting its definition to each the first time. */
function jobId(h: Helpers, binaries: HeapBinaries, name: string): number {
  let ids = h.jobs.get(binaries);
  if (!ids) h.jobs.set(binaries, (ids = new Map()));
  let id = ids.get(name);
  if (id === undefined) {
    let module = modules.get(binaries);
    if (!module) modules.set(binaries, (module = new webAssembly.Module(wasmBytes(binaries.shared))));
    for (const p of h.ports) p.postMessage({ module, name });
    ids.set(name, (id = h.jobCount++));
  }
  return id;
}

/**
 * Waits until every chunk of the job is done (spinning first: the helpers' last chunks end about
 * with ours); then throws this thread's error, else a helper's.
 */
function finish(h: Helpers, chunks: number, kernel: string, error: unknown): void {
  const t0 = performance.now();
  for (let n = 1, done = Atomics.load(h.ctl, COMPLETED); done !== chunks; n++, done = Atomics.load(h.ctl, COMPLETED)) {
    if ((n & 1023) !== 0 || performance.now() - t0 < 1) continue;
    if (Atomics.wait(h.ctl, COMPLETED, done, ANSWER_MS) === 'timed-out' && Atomics.load(h.ctl, COMPLETED) === done) {
      h.lost = true;
      throw new Error(`${kernel} (wasm): a helper thread did not finish its chunk within ${ANSWER_MS / 1000} s`);
    }
  }
  if (h.ctl[FAILED] !== 1) {
    if (error) throw new Error(`${kernel} (wasm): ${errorMessage(error)}`);
    return;
  }
  h.ctl[FAILED] = 0;
  const why = h.ports.map((p) => receiveMessageOnPort(p)?.message).find((m) => typeof m === 'string');
  throw new Error(`${kernel} (wasm${error ? '' : ' helper thread'}): ${error ? errorMessage(error) : why ?? 'failed'}`);
}

/** [base, c0, c1] of each argument, where args(r0, r1) = base + r0 c0 + r1 c1 (checked at one more point). */
function affineForm(args: (r0: number, r1: number) => number[], name: string): number[][] {
  const base = args(0, 0);
  const c0 = args(1, 0).map((v, i) => v - base[i]!);
  const c1 = args(0, 1).map((v, i) => v - base[i]!);
  const probe = args(2, 3);
  if (base.length > MAX_ARGS || probe.some((v, i) => v !== base[i]! + 2 * c0[i]! + 3 * c1[i]!)) {
    throw new Error(`${name} (wasm): a split kernel's arguments must be at most ${MAX_ARGS}, each affine in its first and last row`);
  }
  return [base, c0, c1];
}

/**
 * Runs export `name` of a heap kernel module over `rows` rows: cut in chunks (multiples of
 * `align` rows) that the helpers and this thread share when `split` and helpers serve, else
 * whole here. `args(r0, r1)` gives the export's arguments for rows r0 .. r1: each affine in r0 and r1.
 * Errors name `kernel` (the export's name unless given).
 */
export function runRows(be: HeapBackend, binaries: HeapBinaries, name: string, rows: number, align: number, split: boolean, args: (r0: number, r1: number) => number[], kernel = name): void {
  const here = heapKernels<Record<string, (...a: number[]) => void>>(be, binaries, kernel)[name]!;
  const h = split ? readyHelpers(be) : null;
  const wanted = h ? Math.min(MAX_CHUNKS, CHUNKS_PER_THREAD * (h.workers.length + 1)) : 1;
  const chunkRows = Math.ceil(rows / wanted / align) * align;
  const chunks = Math.ceil(rows / chunkRows);
  if (!h || chunks < 2) {
    here(...args(0, rows));
    return;
  }
  postJob(h.ctl, ++h.seq, jobId(h, binaries, name), rows, chunkRows, chunks, affineForm(args, kernel));
  let error: unknown = null;
  claimChunks(h.ctl, h.seq, (_job, a) => here(...a), (e) => { error ??= e; }, false);
  finish(h, chunks, kernel, error);
}

/** Whether this backend's helpers serve jobs now (they start on the first job offered to them). */
export const helpersServing = (be: HeapBackend): boolean => readyHelpers(be) !== null;

/** Chunks this backend's helpers have run so far (0 where none run). */
export function helperChunks(be: HeapBackend): number {
  const h = helpersOf.get(be.wasm);
  return h ? Atomics.load(h.ctl, HELPED) : 0;
}

/** Ends this backend's helpers (a test's cleanup; they otherwise sleep unreferenced until the process ends). */
export function stopHelpers(be: HeapBackend): void {
  const h = helpersOf.get(be.wasm);
  if (h) {
    h.ctl[JOB] = STOP;
    Atomics.store(h.ctl, SEQ, ++h.seq);
    Atomics.notify(h.ctl, SEQ);
  }
  helpersOf.delete(be.wasm);
}
