// Per-program profile on webgpu, for `npm run bench kernels` and the GPU bench: the GPU programs a
// function dispatches, by name (tfjs labels a program by its class name; ours are named classes,
// see main/ops/kernel-registry.ts), with call counts, the host time spent encoding them
// (runWebGPUProgram), and, where the adapter has timestamp-query, their GPU time from tf.time
// (getExtraProfileInfo: `Name: ms` pairs). Also the GPU -> CPU reads the function waits for.
// SwiftShader has no timestamp-query: there the GPU column is empty and only names, counts, host
// times and reads mean anything.
import * as tf from '../main/ops/tf';

export interface ProgramRow { name: string; calls: number; hostMs: number; gpuMs: number | null }
export interface ProgramProfile {
  rows: ProgramRow[];
  programs: number;
  /** Wall time of the call (with timestamps on, every program is its own submit: slower than untimed). */
  wallMs: number;
  hostMs: number;
  /** Summed GPU time of the programs; null without timestamp-query or when not asked. */
  gpuMs: number | null;
  /** GPU -> CPU reads (backend.read / readSync) the call made. */
  reads: number;
  /** Registered-kernel dispatches through tfjs's engine (what tf.profile lists, without customGrad scopes). */
  kernels: number;
}

type WebgpuLike = {
  runWebGPUProgram(p: object, ...a: unknown[]): unknown;
  read(id: object): Promise<unknown>;
  readSync(id: object): unknown;
  supportTimestampQuery?: boolean;
};

/** True when the active backend is webgpu and its device times programs (timestamp-query). */
export function hasGpuTimer(): boolean {
  return tf.getBackend() === 'webgpu' && (tf.backend() as unknown as WebgpuLike).supportTimestampQuery === true;
}

/** Parses tf.time's getExtraProfileInfo() ('Name: 0.12, Other: 0.5') into summed ms per name. */
export function parseExtraProfileInfo(info: string): Map<string, number> {
  const out = new Map<string, number>();
  for (const part of info.split(', ')) {
    const at = part.lastIndexOf(': ');
    if (at < 0) continue;
    const ms = Number(part.slice(at + 2));
    if (Number.isFinite(ms)) out.set(part.slice(0, at), (out.get(part.slice(0, at)) ?? 0) + ms);
  }
  return out;
}

/**
 * Profiles f on the active webgpu backend. With `gpuTime` (f must then be synchronous: tf.time
 * only sees the programs dispatched before f returns) and a timestamp-query adapter, each
 * program's GPU time too.
 */
export async function profilePrograms(f: () => unknown, o: { gpuTime?: boolean } = {}): Promise<ProgramProfile> {
  const be = tf.backend() as unknown as WebgpuLike;
  const byName = new Map<string, { calls: number; hostMs: number }>();
  const [run, read, readSync] = [be.runWebGPUProgram, be.read, be.readSync];
  let reads = 0;
  let kernels = 0;
  const engine = tf.engine() as unknown as { runKernelFunc(p: { kernelName?: string }): unknown };
  const runKernelFunc = engine.runKernelFunc;
  engine.runKernelFunc = function (this: unknown, p: { kernelName?: string }) {
    if (p.kernelName) kernels++;
    return runKernelFunc.call(this, p);
  };
  be.runWebGPUProgram = function (this: unknown, p: object, ...a: unknown[]) {
    const t0 = performance.now();
    try {
      return run.call(this, p, ...a);
    } finally {
      const r = byName.get(p.constructor.name) ?? { calls: 0, hostMs: 0 };
      r.calls++;
      r.hostMs += performance.now() - t0;
      byName.set(p.constructor.name, r);
    }
  };
  be.read = function (this: unknown, id: object) { reads++; return read.call(this, id); };
  be.readSync = function (this: unknown, id: object) { reads++; return readSync.call(this, id); };
  const timed = o.gpuTime === true && hasGpuTimer();
  let gpu: Map<string, number> | null = null;
  const t0 = performance.now();
  try {
    if (timed) {
      const info = await tf.time(() => { f(); });
      gpu = parseExtraProfileInfo((info as unknown as { getExtraProfileInfo?: () => string }).getExtraProfileInfo?.() ?? '');
    } else {
      await f();
    }
  } finally {
    Object.assign(be, { runWebGPUProgram: run, read, readSync });
    engine.runKernelFunc = runKernelFunc;
  }
  const wallMs = performance.now() - t0;
  const rows = [...byName].map(([name, r]) => ({ name, calls: r.calls, hostMs: r.hostMs, gpuMs: gpu ? gpu.get(name) ?? 0 : null }));
  rows.sort((a, b) => (b.gpuMs ?? 0) - (a.gpuMs ?? 0) || b.calls - a.calls || a.name.localeCompare(b.name));
  const sum = (k: 'hostMs' | 'calls') => rows.reduce((a, r) => a + r[k], 0);
  return { rows, programs: sum('calls'), wallMs, hostMs: sum('hostMs'), gpuMs: gpu ? rows.reduce((a, r) => a + (r.gpuMs ?? 0), 0) : null, reads, kernels };
}

/**
 * A Markdown table: the step's programs (calls, host encode ms) beside the GPU time of the same
 * programs in the timed forward + backward, ranked by GPU time (else by calls); `top` rows.
 */
export function formatProgramTable(step: ProgramProfile, timed: ProgramProfile | null, stepWallMs: number, top = 25): string[] {
  const gpu = new Map((timed?.rows ?? []).map((r) => [r.name, r]));
  const hasGpu = timed?.gpuMs !== null && timed?.gpuMs !== undefined;
  const rows = [...step.rows].sort((a, b) => (gpu.get(b.name)?.gpuMs ?? 0) - (gpu.get(a.name)?.gpuMs ?? 0) || b.calls - a.calls || a.name.localeCompare(b.name));
  const lines = [
    '| program | calls per step | host ms per step | GPU ms (fwd+bwd) | share of fwd+bwd GPU | share of step wall |',
    '| --- | --- | --- | --- | --- | --- |',
  ];
  for (const r of rows.slice(0, top)) {
    const g = gpu.get(r.name)?.gpuMs;
    const gms = hasGpu && g !== undefined && g !== null ? g : null;
    const pct = (x: number | null, of: number | null) => (x === null || !of ? 'n/a' : `${((100 * x) / of).toFixed(1)}%`);
    lines.push(`| ${r.name} | ${r.calls} | ${r.hostMs.toFixed(1)} | ${gms === null ? 'n/a' : gms.toFixed(2)} | ${pct(gms, timed?.gpuMs ?? null)} | ${pct(gms, stepWallMs)} |`);
  }
  if (rows.length > top) lines.push(`| (${rows.length - top} more) | ${rows.slice(top).reduce((a, r) => a + r.calls, 0)} | | | | |`);
  return lines;
}
