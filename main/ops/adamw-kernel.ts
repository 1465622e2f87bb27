// The AdamW kernel's export (main/ops/wasm/adamw.wat) as both its callers use it: its step scalars
// and one call over byte offsets, shared by the heap path (tfjs-internals/wasm-adamw.ts, on tfjs's
// memory) and the host path (train/adamw-host.ts, on a memory of its own).

/** adamw.wat's export: p, g, m, v byte offsets, n values, then the step's scalars. */
export type AdamWKernel = (p: number, g: number, m: number, v: number, n: number, decay: number, b1: number, c1: number, b2: number, c2: number, stepSize: number, sbc2: number, eps: number, scale: number) => void;

/**
 * One step's scalars: decay = 1 - lr wd, stepSize = lr / (1 - b1^t), sbc2 = sqrt(1 - b2^t), and
 * gradScale the clip coefficient the gradient is multiplied by first (1: none).
 */
export interface AdamWStepScalars { decay: number; beta1: number; beta2: number; stepSize: number; sbc2: number; eps: number; gradScale: number }

/** p, m, v (byte offsets, n values each) <- one AdamW step with gradient g, in place. */
export function callAdamW(kernel: AdamWKernel, p: number, g: number, m: number, v: number, n: number, s: AdamWStepScalars): void {
  kernel(p, g, m, v, n, s.decay, s.beta1, 1 - s.beta1, s.beta2, 1 - s.beta2, s.stepSize, s.sbc2, s.eps, s.gradScale);
}
