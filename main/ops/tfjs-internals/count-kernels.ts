// Counts the kernels a function dispatches, by wrapping tfjs's engine.runKernelFunc (and, on webgpu,
// the backend's runWebGPUProgram) while it runs: both are tfjs internals, so this lives inside the
// fence. Used by the fused-op tests (one kernel per fused op) and by bench/kernels.bench.ts.
import * as tf from '../tf';

export type KernelCounts = Map<string, number>;

/** Counts registered-kernel dispatches (engine.runKernelFunc with a kernelName) while f runs. */
export async function countKernels(f: () => unknown | Promise<unknown>): Promise<{ total: number; byName: KernelCounts; programs?: number; scopes: number }> {
  const engine = tf.engine() as unknown as { runKernelFunc(p: { kernelName?: string }): unknown };
  const byName: KernelCounts = new Map();
  const orig = engine.runKernelFunc;
  let scopes = 0; // customGrad ops: tf.profile lists them too (the GPU bench's count)
  engine.runKernelFunc = function (this: unknown, p: { kernelName?: string }) {
    if (p.kernelName) byName.set(p.kernelName, (byName.get(p.kernelName) ?? 0) + 1);
    else scopes++;
    return orig.call(this, p);
  };
  // webgpu: the GPU programs dispatched (reshapes of contiguous data run none)
  const be = tf.backend() as unknown as { runWebGPUProgram?: (...a: unknown[]) => unknown };
  const origProg = be.runWebGPUProgram;
  let programs = 0;
  if (origProg) be.runWebGPUProgram = function (this: unknown, ...a: unknown[]) { programs++; return origProg.apply(this, a); };
  try {
    await f();
  } finally {
    engine.runKernelFunc = orig;
    if (origProg) be.runWebGPUProgram = origProg;
  }
  let total = 0;
  for (const n of byName.values()) total += n;
  return { total, byName, programs: origProg ? programs : undefined, scopes };
}
