// TensorFlow.js in the engine process: the backend is chosen once, by the backend registry
// (main/ops/backend.ts), honouring LINO_BACKEND when the user forced one.
import * as tf from '../ops/tf';
import { selectBackend, type BackendReport } from '../ops/backend';

let report: Promise<BackendReport> | null = null;

export function initBackend(): Promise<BackendReport> {
  report ??= selectBackend();
  return report;
}

export { tf };
