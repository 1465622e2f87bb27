// Loads TensorFlow.js in the engine process and picks the backend.
// (The model engine's backend registry in main/ops/backend.ts takes this over when it lands.)
import * as tf from '@tensorflow/tfjs';
import '@tensorflow/tfjs-backend-wasm';
import type { BackendReport } from '../api/contract';

let report: BackendReport | null = null;

export async function initBackend(preference = process.env.LINO_BACKEND || 'auto'): Promise<BackendReport> {
  if (report) return report;
  const order = preference === 'auto' ? ['wasm', 'cpu'] : [preference];
  const tried: BackendReport['tried'] = [];
  for (const name of order) {
    try {
      const ok = await tf.setBackend(name);
      if (!ok) throw new Error(`tf.setBackend('${name}') returned false`);
      await tf.ready();
      tried.push({ name, ok: true });
      report = { active: name, tried };
      return report;
    } catch (e) {
      tried.push({ name, ok: false, reason: (e as Error).message });
    }
  }
  throw new Error(`no TensorFlow.js backend could start: ${tried.map((t) => `${t.name}: ${t.reason}`).join('; ')}`);
}

export { tf };
