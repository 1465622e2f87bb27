// The webgpu backend for tests and benches, on whatever adapter main/ops/webgpu-env.ts finds (a
// software one, SwiftShader from Debian's chromium, allowed): the environment, navigator.gpu and
// the backend's import are main/ops/webgpu-env.ts's, the one place that does them.
import * as tf from '../../main/ops/tf';
import { importWebgpuBackend } from '../../main/ops/webgpu-env';

export { SWIFTSHADER_ICD } from '../../main/ops/webgpu-env';

let ready: Promise<string | undefined> | undefined;

async function setup(): Promise<string | undefined> {
  if (tf.findBackend('webgpu')) return undefined; // registered by someone else (e.g. backend.ts)
  try {
    const adapter = await importWebgpuBackend({ allowSoftware: true });
    if (!adapter) return 'no WebGPU adapter (no Vulkan driver, and no SwiftShader: install chromium)';
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
