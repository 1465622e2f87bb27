// Faster wasm kernels, registered over tfjs-backend-wasm 4.22's own.
// 1. Zero-copy Identity and same-dtype Cast. tfjs clones (Identity) every
// tensor it saves for the backward pass and its gradients cast float32 to float32; the wasm
// backend implements both as full copies (~650 copies of [4096, 32] per training step in the
// bench). Tensors are immutable, so sharing the buffer with a reference count is safe: this is
// exactly what tfjs's own cpu backend does.
// 2. Slice: the wasm kernel copies the whole input to JS (readSync) before taking any slice; a
// contiguous slice (per-sample batch splits, micro-batches) is one copy inside the heap here.
// 3. Transpose: tfjs's wasm kernel is ~10x slower on a 2-D swap [rows, cols] -> [cols, rows] of a
// multiple of 128 rows (every transpose of the wasm matMul path in linear.ts and batch-matmul.ts
// at B*N = 4096) than on the same data viewed as [rows/64, 64, cols] -> [cols, rows/64, 64], the
// same permutation of memory: there it runs on that view (measured [4096, 32] 718 -> 75 us,
// [4, 1024, 32] batched 705 -> 73 us; a tiled JS copy took 196 us). Sum and Mean over axes that
// are not the innermost transpose their input that way first.
// 4. LinoSampleMatMul, a batch of plain products in one kernel (wasm-sample-matmul.ts).
import * as tf from '../tf';
import { registerSampleMatMul } from './wasm-sample-matmul';

let patched = false;

type RefBackend = {
  incRef(dataId: object): void;
  makeOutput(shape: number[], dtype: string): tf.TensorInfo;
  typedArrayFromHeap(t: tf.TensorInfo): Float32Array;
};
type KernelArgs = { inputs: { x: tf.TensorInfo }; backend: RefBackend; attrs?: { dtype?: string; begin?: number | number[]; size?: number | number[]; perm?: number[] } };

/**
 * Input row counts at which the wasm Transpose kernel is slow on a 2-D swap: measured [4096, 32]
 * 718 us, [1024, 32] 178, [128, 841] 278, but [960, 32] 15, [841, 128] 30 (~0.3 ns a value).
 */
const ALIASING_ROWS = 128;
/** The rows are split in blocks of this many: [4096, 32] as [64, 64, 32] 75 us (blocks of 8: 97, of 2: 201). */
const ROW_BLOCK = 64;

/**
 * The permutation as [batch, rows, cols] -> [batch, cols, rows] when it is one (adjacent axes that
 * stay adjacent merged; the batch is a leading run of axes left in place), else null.
 */
export function asBatchedSwap(shape: number[], perm: number[]): [number, number, number] | null {
  // drop size-1 axes (they move no data) and number the others 0.. in input order
  const real = shape.map((_, a) => a).filter((a) => shape[a] !== 1);
  const dims = real.map((a) => shape[a]!);
  const keep = perm.filter((a) => shape[a] !== 1).map((a) => real.indexOf(a));
  const groups: number[][] = [];
  for (const a of keep) {
    const last = groups[groups.length - 1];
    if (last && a === last[last.length - 1]! + 1) last.push(a);
    else groups.push([a]);
  }
  const size = (g: number[]) => g.reduce((n, a) => n * dims[a]!, 1);
  const ordered = (g: number[][]) => g.every((x, i) => i === 0 || x[0]! > g[i - 1]![0]!);
  if (groups.length === 2 && !ordered(groups)) return [1, size(groups[1]!), size(groups[0]!)];
  if (groups.length === 3 && groups[0]![0]! < groups[2]![0]! && groups[2]![0]! < groups[1]![0]!) {
    return [size(groups[0]!), size(groups[2]!), size(groups[1]!)];
  }
  return null;
}

const share = (x: tf.TensorInfo, backend: RefBackend): tf.TensorInfo => {
  backend.incRef(x.dataId);
  return { dataId: x.dataId, shape: x.shape, dtype: x.dtype };
};

/** Idempotent; a no-op until the wasm kernels are registered (i.e. the wasm package is imported). */
export function ensureFastWasmKernels(): void {
  if (patched) return;
  const identity = tf.getKernel('Identity', 'wasm');
  const cast = tf.getKernel('Cast', 'wasm');
  if (!identity || !cast) return;
  patched = true;
  tf.unregisterKernel('Identity', 'wasm');
  tf.registerKernel({
    kernelName: 'Identity', backendName: 'wasm',
    kernelFunc: ((args: KernelArgs) => (args.inputs.x.dtype === 'string' ? identity.kernelFunc(args as never) : share(args.inputs.x, args.backend))) as never,
  });
  tf.unregisterKernel('Cast', 'wasm');
  tf.registerKernel({
    kernelName: 'Cast', backendName: 'wasm',
    kernelFunc: ((args: KernelArgs) => (args.attrs?.dtype === args.inputs.x.dtype && args.inputs.x.dtype !== 'string' ? share(args.inputs.x, args.backend) : cast.kernelFunc(args as never))) as never,
  });
  const slice = tf.getKernel('Slice', 'wasm');
  if (slice) {
    tf.unregisterKernel('Slice', 'wasm');
    tf.registerKernel({
      kernelName: 'Slice', backendName: 'wasm',
      kernelFunc: ((args: KernelArgs) => {
        const { x } = args.inputs;
        const [begin, size] = tf.slice_util.parseSliceParams(x as tf.Tensor, args.attrs!.begin!, args.attrs!.size!);
        if (x.dtype === 'string' || !tf.slice_util.isSliceContinous(x.shape, begin, size)) return slice.kernelFunc(args as never);
        const out = args.backend.makeOutput(size, x.dtype);
        const off = tf.slice_util.computeFlatOffset(begin, tf.util.computeStrides(x.shape));
        // views taken after makeOutput: allocating may grow (and move) the wasm heap
        const src = args.backend.typedArrayFromHeap(x);
        args.backend.typedArrayFromHeap(out).set(src.subarray(off, off + tf.util.sizeFromShape(size)));
        return out;
      }) as never,
    });
  }
  const fastTranspose = patchTranspose();
  if (fastTranspose) {
    for (const name of ['Sum', 'Mean']) patchReduction(name, fastTranspose);
    registerSampleMatMul(fastTranspose as never);
  }
}

type TransposeFn = (x: tf.TensorInfo, perm: number[], backend: RefBackend) => tf.TensorInfo;

/** Registers the Transpose above; returns it as a function, or null without a wasm Transpose. */
function patchTranspose(): TransposeFn | null {
  const transpose = tf.getKernel('Transpose', 'wasm');
  if (!transpose) return null;
  const run: TransposeFn = (x, perm, backend) => {
    const swap = x.dtype === 'string' ? null : asBatchedSwap(x.shape, perm);
    if (!swap || swap[1] % ALIASING_ROWS !== 0) return transpose.kernelFunc({ inputs: { x }, attrs: { perm }, backend } as never) as tf.TensorInfo;
    const [B, R, C] = swap;
    const view = { dataId: x.dataId, shape: [B, R / ROW_BLOCK, ROW_BLOCK, C], dtype: x.dtype };
    const out = transpose.kernelFunc({ inputs: { x: view }, attrs: { perm: [0, 3, 1, 2] }, backend } as never) as tf.TensorInfo;
    // the same memory as the permuted input; a view with its shape, as wasm's Reshape returns
    return { dataId: out.dataId, shape: perm.map((a) => x.shape[a]!), dtype: out.dtype };
  };
  tf.unregisterKernel('Transpose', 'wasm');
  tf.registerKernel({
    kernelName: 'Transpose', backendName: 'wasm',
    // the original binds its wasm function when the backend initialises (the fallback needs it)
    setupFunc: transpose.setupFunc,
    kernelFunc: ((args: KernelArgs) => run(args.inputs.x, args.attrs!.perm!, args.backend)) as never,
  });
  return run;
}

/**
 * Sum and Mean over axes that are not the innermost transpose their input first inside the wasm
 * kernel, with the wasm Transpose's slow 2-D case (LiNO's per-sample mean over points,
 * [4, 1024, 32] over axis 1: 0.8 ms): here that transpose goes through `fastTranspose`, and the
 * original kernel reduces the innermost axes of its result.
 */
function patchReduction(name: string, fastTranspose: TransposeFn): void {
  const original = tf.getKernel(name, 'wasm');
  if (!original) return;
  tf.unregisterKernel(name, 'wasm');
  tf.registerKernel({
    kernelName: name, backendName: 'wasm', setupFunc: original.setupFunc,
    kernelFunc: ((args: { inputs: { x: tf.TensorInfo }; backend: RefBackend & { disposeData(id: object): void }; attrs: { axis: number | number[]; keepDims: boolean } }) => {
      const { x } = args.inputs;
      const axes = tf.util.parseAxisParam(args.attrs.axis, x.shape);
      const perm = tf.backend_util.getAxesPermutation(axes, x.shape.length);
      const swap = perm && x.dtype !== 'string' ? asBatchedSwap(x.shape, perm) : null;
      if (!perm || !swap || swap[1] % ALIASING_ROWS !== 0) return original.kernelFunc(args as never);
      const t = fastTranspose(x, perm, args.backend);
      const inner = tf.backend_util.getInnerMostAxes(axes.length, x.shape.length);
      const out = original.kernelFunc({ inputs: { x: t }, attrs: { axis: inner, keepDims: false }, backend: args.backend } as never) as tf.TensorInfo;
      args.backend.disposeData(t.dataId);
      return args.attrs.keepDims ? { ...out, shape: tf.backend_util.expandShapeToKeepDim(out.shape, axes) } : out;
    }) as never,
  });
}
