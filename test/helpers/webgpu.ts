// Tests on the webgpu backend: selected by name (so a software adapter such as SwiftShader is
// accepted; the env defaults live in main/ops/webgpu-env.ts), or a skip reason that says why not.
import * as tf from '../../main/ops/tf';
import { selectBackend } from '../../main/ops/backend';
import { formatAdapter } from '../../main/ops/webgpu-env';

let probe: Promise<string | null> | null = null;

/** null when webgpu works here (the backend is left on cpu), else the reason to skip. */
export function webgpuSkipReason(): Promise<string | null> {
  probe ??= (async () => {
    const before = tf.getBackend();
    try {
      const r = await selectBackend('webgpu');
      console.log(`webgpu tests run on: ${formatAdapter(r.adapter!)}`);
      return null;
    } catch (e) {
      const reason = `no WebGPU adapter (install libvulkan1 and chromium for SwiftShader): ${(e as Error).message}`;
      console.log(`webgpu tests skipped: ${reason}`);
      return reason;
    } finally {
      await tf.setBackend(before ?? 'cpu');
    }
  })();
  return probe;
}
