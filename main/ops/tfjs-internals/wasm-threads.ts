// The wasm backend on several threads in Node. tfjs-backend-wasm 4.22 ships a threaded SIMD build
// (XNNPACK's matrix products, convolutions and a few more split across a pthreadpool) but turns it
// off in Node (its flag WASM_HAS_MULTITHREAD_SUPPORT answers false there), because its Emscripten
// pthread workers are started from blob: URLs that Node's worker_threads refuse. Here the flag is set,
// the worker script is wasm-thread-worker.cjs (tfjs's own worker source, pointed at the module's
// JavaScript file), and while the backend initialises two things are steered:
// - URL.createObjectURL answers that file's path for the worker's Blob;
// - os.cpus() answers twice the cores asked for, because the backend sizes its pool as
//   min(logical cores / 2, threads asked) (it halves for hyper-threading), so it would give 1
//   thread on a 2-core machine whatever we ask.
// Emscripten starts 8 pthread workers up front (its pool size is compiled in) and the runtime waits
// until each has loaded the module: 0.66 s and 0.75 s of CPU a backend start, against 0.03 s single-
// threaded, which the engine's and the CLI's many short-lived workers paid at every start. So while
// the backend initialises the global Worker (which Emscripten sets and then constructs) is steered
// too: the workers the pool will take (Emscripten hands out the last made first) are real threads,
// the others SpareWorkers that answer the load at once and hold no thread. Afterwards the spares
// are dropped and the pool's workers unref'd, so that they never keep a process alive.
// The pool is then handed only to products big enough to gain from it (withThreadPool): XNNPACK
// splits every operator it runs over the pool, elementwise ones too, and each split waits for the
// other threads (an Add of [4096, 32] measured 24 -> 50 us): with the pool on every kernel LiNO's
// training step (2,100 kernels) went 118 -> 143 ms.
// Every other kernel runs with no pool, inline as on the single-threaded build. The pool is the
// C++ global tfjs::backend::threadpool, which XNNPACK reads at each run: zero (null) while unused.
import os from 'node:os';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import * as tf from '../tf';

/** Emscripten's pthread pool size in tfjs-backend-wasm 4.22's threaded build (initMainThread). */
const EMSCRIPTEN_POOL = 8;
/** The most threads the threaded build can run: its pool. */
export const MAX_WASM_THREADS = EMSCRIPTEN_POOL;

/**
 * The threads a training process asks for when LINO_WASM_THREADS is not set: 2 where there are two
 * cores or more. Training takes the threaded build, whose products (and our kernels' rows:
 * wasm-helper-threads.ts) use the second core; it costs ~0.2 s to start, which a training run
 * pays once. Measured on 2 cores only (npm run bench kinds); more threads are not measured, so
 * not taken unasked.
 */
export const trainingWasmThreads = (cores = os.availableParallelism()): number => Math.min(2, Math.max(1, cores));

let preferred = 1;
/** Sets the threads a later selectBackend('wasm') in this thread asks for when LINO_WASM_THREADS is not set (training: trainingWasmThreads()). */
export function preferWasmThreads(n: number): void {
  preferred = Math.max(1, Math.min(MAX_WASM_THREADS, Math.floor(n)));
}

/**
 * Threads for the wasm backend a later selectBackend('wasm') initialises in this thread:
 * LINO_WASM_THREADS (at most 8), else what preferWasmThreads set, else 1, the single-threaded
 * build (a short-lived command or worker would pay the threaded build's ~0.2 s start for nothing).
 */
export function wasmThreadsWanted(env: NodeJS.ProcessEnv = process.env): number {
  const fromEnv = env.LINO_WASM_THREADS;
  if (fromEnv !== undefined && fromEnv !== '') {
    const n = Number(fromEnv);
    if (!Number.isInteger(n) || n < 1) throw new Error(`LINO_WASM_THREADS: expected a whole number of threads from 1 to ${MAX_WASM_THREADS}, got '${fromEnv}'`);
    return Math.min(MAX_WASM_THREADS, n);
  }
  return preferred;
}

const workerScript = new URL('./wasm-thread-worker.cjs', import.meta.url);

/** Why the threaded build cannot run here, or null. */
function threadedUnavailable(): string | null {
  if (typeof SharedArrayBuffer !== 'function') return 'no SharedArrayBuffer';
  if (workerScript.protocol !== 'file:' || !existsSync(fileURLToPath(workerScript))) return 'this build did not ship wasm-thread-worker.cjs';
  return null;
}

/** A worker Emscripten starts but the pool never takes: it answers the module's load and holds no thread. */
class SpareWorker {
  private readonly listeners = new Map<string, ((data: unknown) => void)[]>();
  on(event: string, fn: (data: unknown) => void): this {
    this.listeners.set(event, [...(this.listeners.get(event) ?? []), fn]);
    return this;
  }
  postMessage(msg: { cmd?: string }): void {
    if (msg?.cmd !== 'load') throw new Error(`wasm thread pool: a spare worker was asked to '${msg?.cmd}'; the pool took more workers than the threads asked`);
    setImmediate(() => { for (const fn of this.listeners.get('message') ?? []) fn({ cmd: 'loaded' }); });
  }
  unref(): void {}
  ref(): void {}
  terminate(): Promise<number> { return Promise.resolve(0); }
}

/**
 * While `run` initialises the backend: the global Worker Emscripten assigns and constructs makes
 * SpareWorkers for all but the last `real` of its EMSCRIPTEN_POOL; afterwards the global holds the
 * class Emscripten assigned, as it would have.
 */
async function withSpareWorkers<T>(real: number, run: () => Promise<T>): Promise<T> {
  const before = Object.getOwnPropertyDescriptor(globalThis, 'Worker');
  let assigned: (new (path: string) => unknown) | undefined;
  let made = 0;
  function Pooled(path: string): unknown {
    const Real = assigned ?? (before?.value as typeof assigned);
    return made++ < EMSCRIPTEN_POOL - real || !Real ? new SpareWorker() : new Real(path);
  }
  Object.defineProperty(globalThis, 'Worker', { configurable: true, get: () => Pooled, set: (v) => { assigned = v; } });
  try {
    return await run();
  } finally {
    delete (globalThis as { Worker?: unknown }).Worker;
    if (assigned) Object.defineProperty(globalThis, 'Worker', { value: assigned, writable: true, configurable: true, enumerable: true });
    else if (before) Object.defineProperty(globalThis, 'Worker', before);
  }
}

type PThreads = { unusedWorkers: { terminate(): void }[]; runningWorkers: { unref(): void }[] };

/** The pool's workers: the unused ones end, the pool's own never hold the process open. */
function settleWorkers(): void {
  const pthreads = (tf.backend() as unknown as { wasm?: { PThread?: PThreads } }).wasm?.PThread;
  if (!pthreads) return;
  for (const w of pthreads.unusedWorkers.splice(0)) w.terminate();
  for (const w of pthreads.runningWorkers) w.unref();
}

/**
 * The address of tfjs::backend::threadpool in tfjs-backend-wasm 4.22.0's threaded SIMD build (found
 * by zeroing each word of its static data until get_threads_count() stopped answering 2; checked at each start).
 */
export const THREADPOOL_ADDRESS = 23564;
/**
 * Products of at least this many flops run on the pool. Back to back, the pool pays at every size
 * measured on 2 cores (single / pool, us): [4096, 32] x [32, 32] (8.4 Mflop) 201 / 101,
 * [256, 128] x [128, 128] (8.4 Mflop) 180 / 93, [1024, 1024] x [1024, 256] 11,700 / 5,900. Inside
 * a training step small ones lose (why is not measured). npm run bench kinds, median / best step
 * against LINO_WASM_THREADS=1, two rounds: with 1 or 4 Mflop LiNO's step went 117 -> 131-136 ms;
 * with 16, FNO Burgers' best step 25-27 -> 29 ms; with 24, FNO at paper size 234-238 -> 222 ms,
 * DeepONet on Darcy 29² (27.6 Mflop products, seven in a row) 26-27 -> 22 ms, the others within
 * 4%; with 40 the DeepONet gain is gone.
 */
export const POOL_MIN_FLOPS = 24e6;

type WasmHeap = { _get_threads_count(): number; wasmMemory?: { buffer: ArrayBufferLike }; HEAP32: Int32Array };
let gate: { heap: () => Int32Array; index: number; pool: number } | null = null;

/**
 * Whether a product of `flops` runs on the thread pool here (the threaded build, and big enough):
 * our own single-threaded product kernels (wasm-matmul.ts) leave such products to XNNPACK's.
 */
export const poolTakes = (flops: number): boolean => gate !== null && flops >= POOL_MIN_FLOPS;

/** Runs `kernel` (a wasm kernel of about `flops` flops) with the thread pool when it is big enough. */
export function withThreadPool<T>(flops: number, kernel: () => T): T {
  if (!gate || flops < POOL_MIN_FLOPS) return kernel();
  gate.heap()[gate.index] = gate.pool;
  try {
    return kernel();
  } finally {
    gate.heap()[gate.index] = 0;
  }
}

/** Takes the pool from the kernels (withThreadPool hands it back); false where the address does not check out. */
function gatePool(m: WasmHeap, threads: number): boolean {
  const buffer = () => m.wasmMemory?.buffer ?? m.HEAP32.buffer;
  const heap = () => new Int32Array(buffer());
  const index = THREADPOOL_ADDRESS / 4;
  const h = heap();
  const pool = h[index]!;
  if (pool <= 0 || pool % 4 !== 0 || pool >= h.byteLength) return false;
  h[index] = 0;
  if (m._get_threads_count() > 1) { // tfjs answers -1 for no pool
    h[index] = pool;
    return false;
  }
  h[index] = pool;
  if (m._get_threads_count() !== threads) return false;
  h[index] = 0;
  let cached = h;
  // a new view only when the memory has grown (withThreadPool runs twice a pooled product)
  gate = { heap: () => (cached.buffer === buffer() ? cached : (cached = heap())), index, pool };
  return true;
}

const matMulFlops = (a: number[], b: number[], transposeA: boolean): number => {
  const k = transposeA ? a[a.length - 2]! : a[a.length - 1]!;
  return (2 * tf.util.sizeFromShape(a) * tf.util.sizeFromShape(b)) / (k * Math.max(1, tf.util.sizeFromShape(b.slice(0, -2))));
};

const pooled = new WeakSet<object>();

/** The wasm kernels that run on the pool when big enough: the products and the depthwise convolution. */
function gateKernels(): void {
  type Args = { inputs: Record<string, tf.TensorInfo>; attrs: Record<string, unknown> };
  const flopsOf: Record<string, (a: Args) => number> = {
    BatchMatMul: (a) => matMulFlops(a.inputs.a!.shape, a.inputs.b!.shape, !!a.attrs.transposeA),
    _FusedMatMul: (a) => matMulFlops(a.inputs.a!.shape, a.inputs.b!.shape, !!a.attrs.transposeA),
    DepthwiseConv2dNative: (a) => 2 * tf.util.sizeFromShape(a.inputs.x!.shape) * a.inputs.filter!.shape[0]! * a.inputs.filter!.shape[1]!,
  };
  for (const [name, flops] of Object.entries(flopsOf)) {
    const k = tf.getKernel(name, 'wasm');
    if (!k || pooled.has(k.kernelFunc)) continue;
    const kernelFunc = ((args: Args) => withThreadPool(flops(args), () => k.kernelFunc(args as never))) as never;
    pooled.add(kernelFunc);
    tf.unregisterKernel(name, 'wasm');
    tf.registerKernel({ kernelName: name, backendName: 'wasm', setupFunc: k.setupFunc, kernelFunc });
  }
}

export interface WasmInit { ok: boolean; threads: number; reason: string }

let lastInit: WasmInit | null = null;

/** The threads this thread's wasm backend runs on (1 before one started). */
export const wasmThreadsRunning = (): number => lastInit?.threads ?? 1;

/** How this thread's wasm backend runs (the last initWasmBackend's reason), or null before one started. */
export function wasmRunsWith(): string | null {
  return lastInit?.reason ?? null;
}

/**
 * Initialises the wasm backend through `setBackend` (tf.setBackend('wasm')) on `threads` threads
 * where that can run here, else on the single-threaded SIMD build.
 */
export async function initWasmBackend(setBackend: () => Promise<boolean>, threads = wasmThreadsWanted()): Promise<WasmInit> {
  const unavailable = threads > 1 ? threadedUnavailable() : 'one thread asked';
  tf.env().set('WASM_HAS_MULTITHREAD_SUPPORT', unavailable === null);
  if (unavailable !== null) {
    const ok = await setBackend();
    return (lastInit = { ok, threads: 1, reason: `WebAssembly SIMD, 1 thread (${unavailable})` });
  }
  // imported here, not at the top: importing the package registers the wasm backend, which would
  // then be tfjs's automatic choice (async to start) in every process that imports main/ops
  const { getThreadsCount, setThreadsCount } = await import('@tensorflow/tfjs-backend-wasm');
  setThreadsCount(threads);
  const createObjectURL = URL.createObjectURL;
  const cpus = os.cpus;
  URL.createObjectURL = (obj: Blob) => (obj instanceof Blob && obj.type === 'application/javascript' ? fileURLToPath(workerScript) : createObjectURL(obj));
  os.cpus = () => Array.from({ length: 2 * threads }, () => ({}) as os.CpuInfo); // only the count is read
  let ok: boolean;
  try {
    ok = await withSpareWorkers(threads - 1, setBackend);
  } finally {
    URL.createObjectURL = createObjectURL;
    os.cpus = cpus;
  }
  if (!ok) return (lastInit = { ok, threads: 1, reason: 'the threaded wasm build failed to initialise' });
  settleWorkers();
  const running = getThreadsCount();
  if (running > 1 && gatePool((tf.backend() as unknown as { wasm: WasmHeap }).wasm, running)) {
    gateKernels();
    return (lastInit = { ok, threads: running, reason: `WebAssembly SIMD, ${running} threads for products of ${POOL_MIN_FLOPS / 1e6} Mflop or more` });
  }
  return (lastInit = { ok, threads: running, reason: `WebAssembly SIMD, ${running} thread${running === 1 ? '' : 's'}` });
}
