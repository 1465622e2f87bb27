// Faster wasm kernels, registered over tfjs-backend-wasm 4.22's own.
// 1. Zero-copy Identity and same-dtype Cast. tfjs clones (Identity) every
// tensor it saves for the backward pass and its gradients cast float32 to float32; the wasm
// backend implements both as full copies (~650 copies of [4096, 32] per training step in the
// bench). Tensors are immutable, so sharing the buffer with a reference count is safe: this is
// exactly what tfjs's own cpu backend does.
// 2. Slice: the wasm kernel copies the whole input to JS (readSync) before taking any slice; a
// contiguous slice (per-sample batch splits, micro-batches) is one copy inside the heap here.
// 3. Transpose: where the permutation swaps two blocks of axes (a 2-D transpose, batched or not:
// every transpose of the wasm matMul path in linear.ts and batch-matmul.ts) of a multiple of 128
// rows, a tiled copy in JS. The wasm kernel is fast (~0.3 ns a value) except there, where its
// accesses alias in the cache (~5 ns a value: [4096, 32] 721 us, the tiled copy 198 us).
import * as tf from '../tf';

let patched = false;

type RefBackend = {
  incRef(dataId: object): void;
  makeOutput(shape: number[], dtype: string): tf.TensorInfo;
  typedArrayFromHeap(t: tf.TensorInfo): Float32Array;
};
type KernelArgs = { inputs: { x: tf.TensorInfo }; backend: RefBackend; attrs?: { dtype?: string; begin?: number | number[]; size?: number | number[]; perm?: number[] } };

const TILE = 32;
/**
 * Input row counts at which the wasm Transpose kernel is slow (its output rows then start a multiple
 * of 512 bytes apart): measured [1024, 32] 186 us, [960, 32] 15 us, [841, 128] 33 us, [128, 841] 267 us.
 */
const ALIASING_ROWS = 128;

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

/**
 * dst[b, c, r] = src[b, r, c] in TILE x TILE blocks, each written one output row at a time
 * (contiguous writes; the strided reads of a block stay in cache). Measured against other tile
 * sizes and the row-at-a-time read order: [4096, 32] 132 us (T16 row reads 350, T32 row reads 719).
 */
function tiledSwap(src: Float32Array, dst: Float32Array, [B, R, C]: [number, number, number]): void {
  for (let b = 0; b < B; b++) {
    const o = b * R * C;
    for (let r0 = 0; r0 < R; r0 += TILE) {
      const r1 = Math.min(r0 + TILE, R);
      for (let c0 = 0; c0 < C; c0 += TILE) {
        const c1 = Math.min(c0 + TILE, C);
        for (let c = c0; c < c1; c++) {
          const di = o + c * R;
          for (let r = r0; r < r1; r++) dst[di + r] = src[o + r * C + c]!;
        }
      }
    }
  }
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
  const transpose = tf.getKernel('Transpose', 'wasm');
  if (transpose) {
    tf.unregisterKernel('Transpose', 'wasm');
    tf.registerKernel({
      kernelName: 'Transpose', backendName: 'wasm',
      // the original binds its wasm function when the backend initialises (the fallback needs it)
      setupFunc: transpose.setupFunc,
      kernelFunc: ((args: KernelArgs) => {
        const { x } = args.inputs;
        const perm = args.attrs!.perm!;
        const swap = x.dtype === 'float32' ? asBatchedSwap(x.shape, perm) : null;
        // only where the wasm kernel aliases: it is ~5x faster than this copy otherwise
        if (!swap || swap[1] % ALIASING_ROWS !== 0) return transpose.kernelFunc(args as never);
        const out = args.backend.makeOutput(perm.map((a) => x.shape[a]!), x.dtype);
        // views taken after makeOutput: allocating may grow (and move) the wasm heap
        tiledSwap(args.backend.typedArrayFromHeap(x), args.backend.typedArrayFromHeap(out), swap);
        return out;
      }) as never,
    });
  }
}
