// Tensors saved for the backward pass, shared by reference count instead of through an Identity
// kernel. tfjs-core 4.22 keeps every tensor a gradient needs (a registered kernel's inputsToSave/
// outputsToSave, and what a customGrad op passes to save()) as engine.clone(t), which dispatches
// one Identity kernel each: ~340 of a LiNO training step's ~1,100 kernels. On cpu, wasm (our
// kernel, wasm-kernels.ts) and webgpu that kernel only increments the buffer's reference count;
// doing that here keeps the same tensor, the same tape node and the same memory accounting
// without the dispatch. Other backends (tfjs-node) keep tfjs's clone.
// Installed once by tf.ts; imports no tfjs at run time (tf.ts imports this file).
import type * as tf from '../tf';

/** Backends whose buffers are shared by reference count (their Identity kernel is exactly this). */
export const SHARE_SAVED_ON: readonly string[] = ['cpu', 'wasm', 'webgpu'];

type RefBackend = { incRef(dataId: object): void };
type TapeGrad = (dy: tf.Tensor) => Record<string, () => tf.Tensor>;
interface EngineInternals {
  clone(x: tf.Tensor): tf.Tensor;
  registry: Record<string, unknown>;
  state: { tensorInfo: { get(id: object): { backend: unknown } | undefined }; activeScope: { name: string } };
  makeTensorFromDataId(dataId: object, shape: number[], dtype: string, backend: unknown): tf.Tensor;
  addTapeNode(scope: string, inputs: Record<string, tf.Tensor>, outputs: tf.Tensor[], grad: TapeGrad, saved: tf.Tensor[], attrs: object): void;
  runKernel(name: string, inputs: Record<string, tf.Tensor>, attrs: object): tf.Tensor;
  savedShared?: boolean;
}

/** Replaces engine.clone (used only to save tensors for backward) on the given engine; idempotent. */
export function shareSavedTensors(engineObj: unknown): void {
  const engine = engineObj as EngineInternals;
  if (engine.savedShared) return;
  engine.savedShared = true;
  const tfjsClone = engine.clone.bind(engine);
  engine.clone = function (this: EngineInternals, x: tf.Tensor): tf.Tensor {
    const backend = this.state.tensorInfo.get(x.dataId)?.backend;
    const shares = backend !== undefined && x.dtype !== 'string' && SHARE_SAVED_ON.some((n) => this.registry[n] === backend);
    if (!shares) return tfjsClone(x);
    (backend as RefBackend).incRef(x.dataId);
    const y = this.makeTensorFromDataId(x.dataId, x.shape, x.dtype, backend);
    // the tape node tfjs's clone records (its gradient is a float32 cast, for higher-order gradients)
    const grad: TapeGrad = (dy) => ({ x: () => this.runKernel('Cast', { x: dy }, { dtype: 'float32' }) });
    this.addTapeNode(this.state.activeScope.name, { x }, [y], grad, [], {});
    return y;
  };
}
