// AdamW on the wasm backend's heap (main/ops/wasm/adamw.wat, the host AdamW's kernel built for
// tfjs's memory): p, g, m, v flat float32 tensors of one length; p, m and v are updated in place.
// In place on purpose: they are the optimizer's own flat tensors, which nothing else holds
// (ops/adamw-heap.ts), and a new output for each would be 3 x 4 bytes a parameter of fresh heap a step.
import * as tf from '../tf';
import { adamwWasm } from '../wasm/adamw-wasm';
import { callAdamW, type AdamWKernel, type AdamWStepScalars } from '../adamw-kernel';
import { heapKernels, heapOffset as at, registerHeapKernel } from './wasm-heap';

type Info = tf.TensorInfo;

/** Registers `name` (p, g, m, v -> nothing: p, m, v updated in place) on wasm (idempotent). */
export function registerWasmAdamW(name: string): void {
  // the attributes: the step's scalars
  registerHeapKernel<{ p: Info; g: Info; m: Info; v: Info }, AdamWStepScalars>(name, (args) => {
    const { p, g, m, v } = args.inputs;
    const n = p.shape.length === 1 ? p.shape[0]! : -1;
    if ([p, g, m, v].some((t) => t.shape.length !== 1 || t.shape[0] !== n)) {
      throw new Error(`${name}: expected p, g, m and v flat of one length, got [${p.shape.join(', ')}], [${g.shape.join(', ')}], [${m.shape.join(', ')}] and [${v.shape.join(', ')}]`);
    }
    const be = args.backend;
    callAdamW(heapKernels<{ adamw: AdamWKernel }>(be, adamwWasm, name).adamw, at(be, p), at(be, g), at(be, m), at(be, v), n, args.attrs);
    return [];
  });
}
