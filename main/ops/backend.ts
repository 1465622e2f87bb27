// Backend registry and automatic selection. Order: tensorflow via tfjs-node-gpu (CUDA), webgpu
// (Vulkan/Metal/D3D12 through dawn.node; hardware adapters only, a software one such as
// SwiftShader only when asked for by name), tensorflow via tfjs-node (native CPU), wasm, cpu. Both tfjs-node packages register the backend
// name 'tensorflow', so only one may be loaded per process: the GPU one is tried first. They are
// optional dependencies, imported dynamically; each failure is recorded with its reason.
import * as tf from './tf';
import { ensureFastWasmKernels } from './tfjs-internals/wasm-kernels';
import { initWasmBackend, preferWasmThreads, trainingWasmThreads } from './tfjs-internals/wasm-threads';

export { wasmRunsWith } from './tfjs-internals/wasm-threads';
/** Called by a training process before selectBackend: wasm then runs on trainingWasmThreads() unless LINO_WASM_THREADS says otherwise. */
export const preferTrainingThreads = (): void => preferWasmThreads(trainingWasmThreads());
import { formatAdapter, importWebgpuBackend, type AdapterReport } from './webgpu-env';
import { errorMessage } from '../util/error-message';

export const BACKEND_ORDER = ['tensorflow-gpu', 'webgpu', 'tensorflow', 'wasm', 'cpu'] as const;
export type BackendChoice = (typeof BACKEND_ORDER)[number];

export interface BackendAttempt {
  name: BackendChoice;
  ok: boolean;
  /** Why it was skipped, or what runs. */
  reason: string;
}

export interface BackendReport {
  /** The choice that runs ('tensorflow-gpu' | 'tensorflow' | 'wasm' | 'cpu'). */
  active: BackendChoice;
  /** tf.getBackend() after selection ('tensorflow', 'wasm' or 'cpu'). */
  tfBackend: string;
  attempts: BackendAttempt[];
  /** webgpu: the adapter it runs on. */
  adapter?: AdapterReport;
}

/** Backends whose tensors live off the host: reads are async, and per-step work stays on the device. */
export const DEVICE_BACKENDS: readonly string[] = ['webgpu', 'tensorflow', 'webgl'];
export const isDeviceBackend = (tfBackend = tf.getBackend()) => DEVICE_BACKENDS.includes(tfBackend);

let lostReason: string | null = null;
let lostWaiters: ((e: Error) => void)[] = [];
let activeAdapter: AdapterReport | undefined;

const lostError = () => new Error(`GPU device lost (${lostReason}): the run stops here and resumes from its last checkpoint when started again`);

/** Throws when the webgpu device was lost (driver reset, GPU removed, out of memory). */
export function checkDeviceLost(): void {
  if (lostReason !== null && tf.getBackend() === 'webgpu') throw lostError();
}

/** A read that fails with a readable error if the device is lost while it waits. */
export async function readValues(t: tf.Tensor): Promise<Float32Array> {
  if (tf.getBackend() !== 'webgpu') return (await t.data()) as Float32Array;
  checkDeviceLost();
  return Promise.race([t.data() as Promise<Float32Array>, new Promise<never>((_, reject) => lostWaiters.push(reject))]);
}

function watchDevice(): void {
  const device = (tf.backend() as unknown as { device?: { lost?: Promise<{ reason?: string; message?: string }> } }).device;
  void device?.lost?.then((info) => {
    lostReason = `${info.reason ?? 'unknown'}${info.message ? `: ${info.message}` : ''}`;
    const waiters = lostWaiters;
    lostWaiters = [];
    for (const w of waiters) w(lostError());
  });
}

/** The webgpu adapter of this process, once selected. */
export const webgpuAdapter = (): AdapterReport | undefined => activeAdapter;

let nodePackageLoaded: 'tensorflow-gpu' | 'tensorflow' | undefined;

async function importOptional(spec: string): Promise<void> {
  // A non-literal specifier keeps bundlers and tsc from resolving an optional package.
  await import(/* @vite-ignore */ spec);
}

const msg = (e: unknown) => errorMessage(e).split('\n')[0]!.slice(0, 300);

async function tryOne(name: BackendChoice, explicit: boolean): Promise<BackendAttempt> {
  try {
    switch (name) {
      case 'tensorflow-gpu':
      case 'tensorflow': {
        if (nodePackageLoaded && nodePackageLoaded !== name) {
          return { name, ok: false, reason: `'${nodePackageLoaded}' already registered the 'tensorflow' backend in this process` };
        }
        if (!nodePackageLoaded) {
          await importOptional(name === 'tensorflow-gpu' ? '@tensorflow/tfjs-node-gpu' : '@tensorflow/tfjs-node');
          nodePackageLoaded = name;
        }
        if (!(await tf.setBackend('tensorflow'))) return { name, ok: false, reason: 'tf.setBackend("tensorflow") returned false' };
        return { name, ok: true, reason: name === 'tensorflow-gpu' ? 'TensorFlow native with CUDA (tfjs-node-gpu)' : 'TensorFlow native CPU (tfjs-node)' };
      }
      case 'webgpu': {
        const adapter = await importWebgpuBackend({ allowSoftware: explicit });
        if (!adapter) return { name, ok: false, reason: 'no WebGPU adapter (no Vulkan, Metal or D3D12 driver found)' };
        if (adapter.fallback && !explicit) return { name, ok: false, reason: `only a software adapter: ${formatAdapter(adapter)} (use --backend webgpu to run on it anyway)` };
        if (!(await tf.setBackend('webgpu'))) return { name, ok: false, reason: 'tf.setBackend("webgpu") returned false' };
        activeAdapter = adapter;
        watchDevice();
        return { name, ok: true, reason: formatAdapter(adapter) };
      }
      case 'wasm': {
        await import('@tensorflow/tfjs-backend-wasm');
        ensureFastWasmKernels();
        const init = await initWasmBackend(() => tf.setBackend('wasm'));
        if (!init.ok) return { name, ok: false, reason: `wasm backend failed to initialise (${init.reason})` };
        return { name, ok: true, reason: init.reason };
      }
      case 'cpu':
        if (!(await tf.setBackend('cpu'))) return { name, ok: false, reason: 'cpu backend failed to initialise' };
        return { name, ok: true, reason: 'plain JavaScript (slowest)' };
    }
  } catch (e) {
    const pkg = name === 'tensorflow-gpu' ? '@tensorflow/tfjs-node-gpu' : name === 'tensorflow' ? '@tensorflow/tfjs-node' : name === 'webgpu' ? 'webgpu (dawn.node)' : `backend ${name}`;
    return { name, ok: false, reason: `${pkg} unavailable: ${msg(e)}` };
  }
}

export function isBackendChoice(s: string): s is BackendChoice {
  return (BACKEND_ORDER as readonly string[]).includes(s);
}

/**
 * Picks the first backend that works, or exactly `force` (error listing why it failed).
 * `force` may also come from the LINO_BACKEND environment variable.
 */
export async function selectBackend(force: string | undefined = process.env.LINO_BACKEND || undefined): Promise<BackendReport> {
  if (force !== undefined && !isBackendChoice(force)) {
    throw new Error(`backend '${force}' is not one of ${BACKEND_ORDER.join(', ')}`);
  }
  // Production mode: no debug checks, and no console banner urging tfjs-node on every process.
  tf.enableProdMode();
  const attempts: BackendAttempt[] = [];
  for (const name of force ? [force] : BACKEND_ORDER) {
    const a = await tryOne(name, force !== undefined);
    attempts.push(a);
    if (a.ok) {
      await tf.ready();
      return { active: name, tfBackend: tf.getBackend(), attempts, ...(name === 'webgpu' && activeAdapter ? { adapter: activeAdapter } : {}) };
    }
  }
  const why = attempts.map((a) => `${a.name}: ${a.reason}`).join('; ');
  throw new Error(force ? `backend '${force}' could not be used (${why})` : `no backend could be initialised (${why})`);
}

export function formatBackendReport(r: BackendReport): string {
  const lines = r.attempts.map((a) => `  ${a.ok ? '*' : '-'} ${a.name.padEnd(15)} ${a.ok ? 'active: ' : 'skipped: '}${a.reason}`);
  const adapter = r.adapter ? `\nadapter: ${formatAdapter(r.adapter)} (vendor '${r.adapter.vendor}', architecture '${r.adapter.architecture}')` : '';
  return `backend: ${r.active}${adapter}\n${lines.join('\n')}`;
}
