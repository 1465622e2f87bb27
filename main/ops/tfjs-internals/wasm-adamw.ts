// AdamW on the wasm backend's heap (main/ops/wasm/adamw.wat, the host AdamW's kernel built for
// tfjs's memory): p, g, m, v flat float32 tensors of one length; p, m and v are updated in place.
// In place on purpose: they are the optimizer's own flat tensors, which nothing else holds
// (ops/adamw-heap.ts), and a new output for each would be 3 x 4 bytes a parameter of fresh heap a step.
import * as tf from '../tf';
import { adamwWasm } from '../wasm/adamw-wasm';
import { heapKernels, heapOffset as at, registerHeapKernel } from './wasm-heap';

type AdamWKernel = (p: number, g: number, m: number, v: number, n: number, decay: number, b1: number, c1: number, b2: number, c2: number, stepSize: number, sbc2: number, eps: number, scale: number) => void;
type Info = tf.TensorInfo;

/** The step's scalars, as the kernel's attributes. */
export interface AdamWAttrs { decay: number; beta1: number; beta2: number; stepSize: number; sbc2: number; eps: number; gradScale: number }

/** Registers `name` (p, g, m, v -> nothing: p, m, v updated in place) on wasm (idempotent). */
export function registerWasmAdamW(name: string): void {
  registerHeapKernel<{ p: Info; g: Info; m: Info; v: Info }, AdamWAttrs>(name, (args) => {
    const { p, g, m, v } = args.inputs;
    const n = p.shape.length === 1 ? p.shape[0]! : -1;
    if ([p, g, m, v].some((t) => t.shape.length !== 1 || t.shape[0] !== n)) {
      throw new Error(`${name}: expected p, g, m and v flat of one length, got [${p.shape.join(', ')}], [${g.shape.join(', ')}], [${m.shape.join(', ')}] and [${v.shape.join(', ')}]`);
    }
    const be = args.backend;
    const s = args.attrs;
    heapKernels<{ adamw: AdamWKernel }>(be, adamwWasm, name).adamw(at(be, p), at(be, g), at(be, m), at(be, v), n,
      s.decay, s.beta1, 1 - s.beta1, s.beta2, 1 - s.beta2, s.stepSize, s.sbc2, s.eps, s.gradScale);
    return [];
  });
}
