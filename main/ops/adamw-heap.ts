// One AdamW step on the wasm backend's heap, in place on the optimizer's own flat tensors (p, m, v;
// train/adamw.ts holds them and lets nothing else see them): the host AdamW's kernel on tfjs's
// memory (tfjs-internals/wasm-adamw.ts), so the flat gradient never leaves the heap. Measured before
// it (DeepONet Burgers, 297k parameters): reading the gradient out, the host update and writing
// every parameter back took 1.2 ms of a 4.7 ms step. wasm only: heapAdamWAvailable says where.
import * as tf from './tf';
import { hasFusedKernel, runFused } from './kernel-registry';
import type { AdamWStepScalars } from './adamw-kernel';
import { registerWasmAdamW } from './tfjs-internals/wasm-adamw';

const NAME = 'LinoAdamW';
registerWasmAdamW(NAME);

/** Whether adamwOnHeap runs here: the wasm backend, with our kernels on. */
export const heapAdamWAvailable = (): boolean => hasFusedKernel(NAME);

/** p, m, v <- one AdamW step with gradient g (all flat, one length); p, m, v must be the caller's own. */
export function adamwOnHeap(p: tf.Tensor1D, g: tf.Tensor1D, m: tf.Tensor1D, v: tf.Tensor1D, s: AdamWStepScalars): void {
  runFused(NAME, { p, g, m, v }, { ...s });
}
