// Faster wasm kernels, registered over tfjs-backend-wasm 4.22's own.
// 1. Zero-copy Identity and same-dtype Cast. tfjs clones (Identity) every
// tensor it saves for the backward pass and its gradients cast float32 to float32; the wasm
// backend implements both as full copies (~650 copies of [4096, 32] per training step in the
// bench). Tensors are immutable, so sharing the buffer with a reference count is safe: this is
// exactly what tfjs's own cpu backend does.
// 2. Slice: the wasm kernel copies the whole input to JS (readSync) before taking any slice; a
// contiguous slice (per-sample batch splits, micro-batches) is one copy inside the heap here.
import * as tf from '../tf';

let patched = false;

type RefBackend = {
  incRef(dataId: object): void;
  makeOutput(shape: number[], dtype: string): tf.TensorInfo;
  typedArrayFromHeap(t: tf.TensorInfo): Float32Array;
};
type KernelArgs = { inputs: { x: tf.TensorInfo }; backend: RefBackend; attrs?: { dtype?: string; begin?: number | number[]; size?: number | number[] } };

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
}
