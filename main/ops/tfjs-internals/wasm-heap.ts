// Our own WebAssembly kernels (main/ops/wasm/*.wat) on the wasm backend's heap: each module imports
// the backend's memory, so a kernel's inputs, outputs and scratch are heap offsets and nothing is
// copied through JS. Pinned to tfjs-backend-wasm 4.22's Emscripten module: its memory is
// `asm.memory` in the single-threaded build and `wasmMemory` (shared) in the threaded one; `_malloc`
// and `_free` are the heap's allocator, which the backend's own makeOutput uses.
import * as tf from '../tf';
import { wasmBytes, webAssembly, type WasmMemory } from '../../util/webassembly';

interface EmscriptenModule {
  asm?: { memory?: WasmMemory };
  wasmMemory?: WasmMemory;
  _malloc(bytes: number): number;
  _free(offset: number): void;
}
export interface HeapBackend {
  wasm: EmscriptenModule;
  dataIdMap: { get(d: object): { memoryOffset: number } };
  makeOutput(shape: number[], dtype: string): tf.TensorInfo;
  typedArrayFromHeap(t: tf.TensorInfo): Float32Array;
}
/** A kernel's binaries (scripts/build-wasm.mjs): for a plain memory and for a shared one. */
export interface HeapBinaries { plain: string; shared: string }

const instances = new WeakMap<EmscriptenModule, Map<HeapBinaries, unknown>>();

/** The kernel module's exports, instantiated once per backend module on its memory. */
export function heapKernels<T>(be: HeapBackend, binaries: HeapBinaries, name: string): T {
  const m = be.wasm;
  let byBinary = instances.get(m);
  if (!byBinary) instances.set(m, (byBinary = new Map()));
  let k = byBinary.get(binaries) as T | undefined;
  if (!k) {
    const memory = m.asm?.memory ?? m.wasmMemory;
    if (!(memory instanceof webAssembly.Memory)) throw new Error(`${name} (wasm): the wasm backend exposes no memory; expected tfjs-backend-wasm 4.22`);
    const shared = typeof SharedArrayBuffer !== 'undefined' && memory.buffer instanceof SharedArrayBuffer;
    const module = new webAssembly.Module(wasmBytes(shared ? binaries.shared : binaries.plain));
    k = new webAssembly.Instance(module, { env: { memory } }).exports as T;
    byBinary.set(binaries, k);
  }
  return k;
}

/** A tensor's byte offset in the heap. */
export const heapOffset = (be: Pick<HeapBackend, 'dataIdMap'>, t: tf.TensorInfo): number => be.dataIdMap.get(t.dataId).memoryOffset >>> 0;

/** Runs `body` with `floats` of heap scratch, freed afterwards even when it throws. */
export function withScratch<T>(be: HeapBackend, floats: number, name: string, body: (offset: number) => T): T {
  const at = be.wasm._malloc(4 * floats) >>> 0;
  if (at === 0) throw new Error(`${name} (wasm): out of memory for ${floats} floats of scratch`);
  try {
    return body(at);
  } finally {
    be.wasm._free(at);
  }
}

function checkFloat(name: string, infos: tf.TensorInfo[]): void {
  for (const t of infos) if (t.dtype !== 'float32') throw new Error(`${name}: inputs must be float32, got ${t.dtype}`);
}

/** What a heap kernel's body gets: its inputs (every one float32), the backend, its attributes. */
export interface HeapKernelArgs<I, A> { inputs: I; backend: HeapBackend; attrs: A }

/** Registers `name` on wasm once; the inputs are checked float32 before `body` runs. */
export function registerHeapKernel<I extends object, A = Record<string, number>>(name: string, body: (args: HeapKernelArgs<I, A>) => tf.TensorInfo | tf.TensorInfo[]): void {
  if (tf.getKernel(name, 'wasm')) return;
  tf.registerKernel({
    kernelName: name, backendName: 'wasm',
    kernelFunc: ((args: HeapKernelArgs<I, A>) => {
      checkFloat(name, Object.values(args.inputs).filter((t): t is tf.TensorInfo => t !== undefined));
      return body(args);
    }) as never,
  });
}
