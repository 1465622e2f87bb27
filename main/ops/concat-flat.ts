// Tensors of any shapes flattened and concatenated into one 1-D float32 tensor, in one kernel:
// the training step's flat gradient (every parameter's, for the norm, clipping and AdamW). As
// composed ops it is a reshape per tensor plus a concat (~130 dispatches for LiNO M32 L4).
// Per backend: cpu and wasm copy the values in JS; webgpu runs its own Concat kernel on the
// inputs viewed as 1-D (a reshape of contiguous data is only a new shape there). Elsewhere, or
// with the fused kernels off, the composed ops. Not differentiable: it packs gradients.
import * as tf from './tf';
import { hasFusedKernel } from './kernel-registry';

const NAME = 'LinoConcatFlat';

type KernelArgs = { inputs: Record<string, tf.TensorInfo>; backend: unknown; attrs?: unknown };
type CpuBackend = { data: { get(id: object): { values: Float32Array } }; makeTensorInfo(shape: number[], dtype: string, values: Float32Array): tf.TensorInfo };
type WasmBackend = { typedArrayFromHeap(t: tf.TensorInfo): Float32Array; makeOutput(shape: number[], dtype: string): tf.TensorInfo };

const sizeOf = (t: tf.TensorInfo) => t.shape.reduce((a, b) => a * b, 1);

function inputsOf(args: KernelArgs): tf.TensorInfo[] {
  const infos = Object.values(args.inputs); // keys '0', '1', ...: integer keys iterate in order
  for (const t of infos) if (t.dtype !== 'float32') throw new Error(`${NAME}: inputs must be float32, got ${t.dtype}`);
  return infos;
}

function register(): void {
  if (tf.getKernel(NAME, 'cpu')) return; // idempotent (module loaded twice by a bundler)
  tf.registerKernel({
    kernelName: NAME, backendName: 'cpu',
    kernelFunc: ((args: KernelArgs) => {
      const infos = inputsOf(args);
      const be = args.backend as CpuBackend;
      const out = new Float32Array(infos.reduce((a, t) => a + sizeOf(t), 0));
      let off = 0;
      for (const t of infos) { out.set(be.data.get(t.dataId).values, off); off += sizeOf(t); }
      return be.makeTensorInfo([out.length], 'float32', out);
    }) as never,
  });
  tf.registerKernel({
    kernelName: NAME, backendName: 'wasm',
    kernelFunc: ((args: KernelArgs) => {
      const infos = inputsOf(args);
      const be = args.backend as WasmBackend;
      const info = be.makeOutput([infos.reduce((a, t) => a + sizeOf(t), 0)], 'float32');
      // heap views after makeOutput: allocating may grow (and move) the heap
      const out = be.typedArrayFromHeap(info);
      let off = 0;
      for (const t of infos) { out.set(be.typedArrayFromHeap(t), off); off += sizeOf(t); }
      return info;
    }) as never,
  });
  tf.registerKernel({
    kernelName: NAME, backendName: 'webgpu',
    kernelFunc: ((args: KernelArgs) => {
      const infos = inputsOf(args).map((t) => ({ dataId: t.dataId, shape: [sizeOf(t)], dtype: t.dtype }));
      const concat = tf.getKernel('Concat', 'webgpu');
      if (!concat) throw new Error(`${NAME}: the webgpu backend has no Concat kernel`);
      return concat.kernelFunc({ inputs: infos as never, backend: args.backend as never, attrs: { axis: 0 } });
    }) as never,
  });
}
register();

/** [t0.flatten(), t1.flatten(), ...] concatenated: one float32 tensor of every value, in order. */
export function concatFlat(tensors: tf.Tensor[]): tf.Tensor1D {
  if (tensors.length === 0) return tf.zeros([0]) as tf.Tensor1D;
  if (!hasFusedKernel(NAME)) return tf.tidy(() => tf.concat(tensors.map((t) => tf.reshape(t, [-1]))) as tf.Tensor1D);
  const inputs: Record<string, tf.Tensor> = {};
  tensors.forEach((t, i) => { inputs[i] = t; });
  return tf.engine().runKernel(NAME, inputs as tf.NamedTensorMap) as tf.Tensor1D;
}
