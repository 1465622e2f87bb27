// Backend registry and automatic selection. Order: tensorflow via tfjs-node-gpu (CUDA),
// tensorflow via tfjs-node (native CPU), wasm, cpu. Both tfjs-node packages register the backend
// name 'tensorflow', so only one may be loaded per process: the GPU one is tried first. They are
// optional dependencies, imported dynamically; each failure is recorded with its reason.
import * as tf from '@tensorflow/tfjs';
import { ensureFastWasmKernels } from './wasm-kernels';

export const BACKEND_ORDER = ['tensorflow-gpu', 'tensorflow', 'wasm', 'cpu'] as const;
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
}

let nodePackageLoaded: 'tensorflow-gpu' | 'tensorflow' | undefined;

async function importOptional(spec: string): Promise<void> {
  // A non-literal specifier keeps bundlers and tsc from resolving an optional package.
  await import(/* @vite-ignore */ spec);
}

const msg = (e: unknown) => (e instanceof Error ? e.message : String(e)).split('\n')[0]!.slice(0, 300);

async function tryOne(name: BackendChoice): Promise<BackendAttempt> {
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
      case 'wasm': {
        await import('@tensorflow/tfjs-backend-wasm');
        ensureFastWasmKernels();
        if (!(await tf.setBackend('wasm'))) return { name, ok: false, reason: 'wasm backend failed to initialise' };
        return { name, ok: true, reason: 'WebAssembly SIMD (single-threaded in Node)' };
      }
      case 'cpu':
        if (!(await tf.setBackend('cpu'))) return { name, ok: false, reason: 'cpu backend failed to initialise' };
        return { name, ok: true, reason: 'plain JavaScript (slowest)' };
    }
  } catch (e) {
    const pkg = name === 'tensorflow-gpu' ? '@tensorflow/tfjs-node-gpu' : name === 'tensorflow' ? '@tensorflow/tfjs-node' : `backend ${name}`;
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
    const a = await tryOne(name);
    attempts.push(a);
    if (a.ok) {
      await tf.ready();
      return { active: name, tfBackend: tf.getBackend(), attempts };
    }
  }
  const why = attempts.map((a) => `${a.name}: ${a.reason}`).join('; ');
  throw new Error(force ? `backend '${force}' could not be used (${why})` : `no backend could be initialised (${why})`);
}

export function formatBackendReport(r: BackendReport): string {
  const lines = r.attempts.map((a) => `  ${a.ok ? '*' : '-'} ${a.name.padEnd(15)} ${a.ok ? 'active: ' : 'skipped: '}${a.reason}`);
  return `backend: ${r.active}\n${lines.join('\n')}`;
}
