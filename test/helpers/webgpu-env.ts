// Registers tfjs's webgpu backend on a software adapter (SwiftShader, shipped with Debian's
// chromium) for tests and benches. navigator.gpu must exist before tfjs-backend-webgpu is
// imported: the package registers its backend only if it sees it at import time.
import { existsSync, mkdirSync } from 'node:fs';
import * as tf from '../../main/ops/tf';

export const SWIFTSHADER_ICD = '/usr/lib/chromium/vk_swiftshader_icd.json';

let ready: Promise<string | undefined> | undefined;

async function setup(): Promise<string | undefined> {
  if (tf.findBackend('webgpu')) return undefined; // registered by someone else (e.g. backend.ts)
  if (!process.env.VK_ICD_FILENAMES) {
    if (!existsSync(SWIFTSHADER_ICD)) return `no Vulkan driver: ${SWIFTSHADER_ICD} missing (install chromium) and VK_ICD_FILENAMES unset`;
    process.env.VK_ICD_FILENAMES = SWIFTSHADER_ICD;
  }
  if (!process.env.XDG_RUNTIME_DIR) {
    const dir = `/tmp/xdg-${process.getuid?.() ?? 'user'}`;
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    process.env.XDG_RUNTIME_DIR = dir;
  }
  try {
    const { create, globals } = await import('webgpu');
    Object.assign(globalThis, globals);
    const nav = (globalThis as { navigator?: object }).navigator ?? ((globalThis as { navigator?: object }).navigator = {});
    Object.defineProperty(nav, 'gpu', { value: create([]), configurable: true });
    await import('@tensorflow/tfjs-backend-webgpu');
  } catch (e) {
    return `webgpu package failed to load: ${(e as Error).message}`;
  }
  if (!tf.findBackend('webgpu') && !tf.engine().registryFactory.webgpu) return 'tfjs-backend-webgpu did not register a backend';
  return undefined;
}

/**
 * Makes the webgpu backend available (not active). Resolves to undefined when it can be used,
 * otherwise to the reason it cannot (for a test's skip string).
 */
export async function webgpuUnavailable(): Promise<string | undefined> {
  ready ??= setup().then(async (why) => {
    if (why) return why;
    const prev = tf.getBackend();
    try {
      if (!(await tf.setBackend('webgpu'))) return 'webgpu backend failed to initialize (no adapter)';
    } catch (e) {
      return `webgpu backend failed to initialize: ${(e as Error).message}`;
    }
    if (prev) await tf.setBackend(prev);
    return undefined;
  });
  return ready;
}
