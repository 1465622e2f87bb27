// A 1-D float32 tensor cut into consecutive pieces of the given shapes, in one kernel: the device
// AdamW's write-back of the updated flat parameters to each parameter. As composed ops it is a
// split plus a reshape per piece (~130 dispatches for LiNO M32 L4). Per backend: cpu and wasm copy
// in JS; webgpu runs its own Slice kernel per piece (one program each, as split does) and gives
// the result the piece's shape. Elsewhere, or with the fused kernels off, the composed ops. Not
// differentiable: it unpacks optimizer updates.
import * as tf from './tf';
import { hasFusedKernel } from './kernel-registry';

const NAME = 'LinoSplitFlat';

type KernelArgs = { inputs: { x: tf.TensorInfo }; backend: unknown; attrs: { shapes: number[][] } };
type CpuBackend = { data: { get(id: object): { values: Float32Array } }; makeTensorInfo(shape: number[], dtype: string, values: Float32Array): tf.TensorInfo };
type WasmBackend = { typedArrayFromHeap(t: tf.TensorInfo): Float32Array; makeOutput(shape: number[], dtype: string): tf.TensorInfo };

const sizeOf = (shape: number[]) => shape.reduce((a, b) => a * b, 1);

/** The pieces' offsets; throws unless they exactly cover x. */
function offsetsOf(args: KernelArgs): number[] {
  const { x } = args.inputs;
  if (x.dtype !== 'float32' || x.shape.length !== 1) throw new Error(`${NAME}: input must be 1-D float32, got ${x.dtype} [${x.shape.join(', ')}]`);
  const offs: number[] = [];
  let off = 0;
  for (const s of args.attrs.shapes) { offs.push(off); off += sizeOf(s); }
  if (off !== x.shape[0]) throw new Error(`${NAME}: the shapes hold ${off} values, the input has ${x.shape[0]}`);
  return offs;
}

function register(): void {
  if (tf.getKernel(NAME, 'cpu')) return; // idempotent (module loaded twice by a bundler)
  tf.registerKernel({
    kernelName: NAME, backendName: 'cpu',
    kernelFunc: ((args: KernelArgs) => {
      const offs = offsetsOf(args);
      const be = args.backend as CpuBackend;
      const v = be.data.get(args.inputs.x.dataId).values;
      return args.attrs.shapes.map((s, i) => be.makeTensorInfo(s, 'float32', v.slice(offs[i]!, offs[i]! + sizeOf(s))));
    }) as never,
  });
  tf.registerKernel({
    kernelName: NAME, backendName: 'wasm',
    kernelFunc: ((args: KernelArgs) => {
      const offs = offsetsOf(args);
      const be = args.backend as WasmBackend;
      return args.attrs.shapes.map((s, i) => {
        const info = be.makeOutput(s, 'float32');
        // heap views after makeOutput: allocating may grow (and move) the heap
        be.typedArrayFromHeap(info).set(be.typedArrayFromHeap(args.inputs.x).subarray(offs[i]!, offs[i]! + sizeOf(s)));
        return info;
      });
    }) as never,
  });
  tf.registerKernel({
    kernelName: NAME, backendName: 'webgpu',
    kernelFunc: ((args: KernelArgs) => {
      const offs = offsetsOf(args);
      const slice = tf.getKernel('Slice', 'webgpu');
      if (!slice) throw new Error(`${NAME}: the webgpu backend has no Slice kernel`);
      return args.attrs.shapes.map((s, i) => {
        const piece = slice.kernelFunc({ inputs: { x: args.inputs.x } as never, backend: args.backend as never, attrs: { begin: [offs[i]!], size: [sizeOf(s)] } }) as tf.TensorInfo;
        return { dataId: piece.dataId, shape: s, dtype: piece.dtype };
      });
    }) as never,
  });
}
register();

/** x [n] -> pieces of `shapes` (sizes adding up to n), in order. */
export function splitFlat(x: tf.Tensor1D, shapes: number[][]): tf.Tensor[] {
  if (!hasFusedKernel(NAME)) return tf.tidy(() => tf.split(x, shapes.map(sizeOf)).map((p, i) => tf.reshape(p, shapes[i]!)));
  const out = tf.engine().runKernel(NAME, { x }, { shapes } as never);
  return (Array.isArray(out) ? out : [out]) as tf.Tensor[];
}
