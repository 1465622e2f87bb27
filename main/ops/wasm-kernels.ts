// Zero-copy Identity and same-dtype Cast for the wasm backend. tfjs clones (Identity) every
// tensor it saves for the backward pass and its gradients cast float32 to float32; the wasm
// backend implements both as full copies (~650 copies of [4096, 32] per training step in the
// bench). Tensors are immutable, so sharing the buffer with a reference count is safe: this is
// exactly what tfjs's own cpu backend does.
import * as tf from '@tensorflow/tfjs';

let patched = false;

type RefBackend = { incRef(dataId: object): void };
type KernelArgs = { inputs: { x: tf.TensorInfo }; backend: RefBackend; attrs?: { dtype?: string } };

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
}
