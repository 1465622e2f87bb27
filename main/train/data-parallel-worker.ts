// Worker thread of DataParallelTrainer: its own tfjs backend and model replica; per step it
// receives the current parameters and its share of the batch, returns its weighted gradients.
import { parentPort } from 'node:worker_threads';
import * as tf from '@tensorflow/tfjs';
import { selectBackend } from '../ops/backend';
import { createModel } from '../model/registry';
import type { NeuralOperator } from '../model/types';
import { mseGradients } from './grad-step';

export interface InitMsg { type: 'init'; kind: string; config: unknown; backend?: string }
export interface StepMsg {
  type: 'step';
  params?: Record<string, Float32Array>;
  x: Float32Array; xShape: number[]; y: Float32Array; yShape: number[];
  microBatch: number; scale: number;
}

let model: NeuralOperator | undefined;

parentPort!.on('message', async (msg: InitMsg | StepMsg | { type: 'close' }) => {
  try {
    if (msg.type === 'init') {
      const report = await selectBackend(msg.backend);
      model = createModel(msg.kind, msg.config);
      parentPort!.postMessage({ type: 'ready', backend: report.active });
    } else if (msg.type === 'step') {
      const m = model!;
      if (msg.params) {
        for (const [k, v] of m.variables) {
          const t = tf.tensor(msg.params[k]!, v.shape, 'float32');
          v.assign(t);
          t.dispose();
        }
      }
      const x = tf.tensor(msg.x, msg.xShape, 'float32');
      const y = tf.tensor(msg.y, msg.yShape, 'float32');
      const t0 = performance.now();
      const { loss, grads } = mseGradients(m, x, y, msg.microBatch, msg.scale);
      const out: Record<string, Float32Array> = {};
      for (const [k, g] of grads) out[k] = g.dataSync() as Float32Array;
      tf.dispose([x, y, ...grads.values()]);
      parentPort!.postMessage({ type: 'grads', loss, grads: out, ms: performance.now() - t0 }, Object.values(out).map((a) => a.buffer as ArrayBuffer));
    } else if (msg.type === 'close') {
      model?.dispose();
      parentPort!.close();
    }
  } catch (e) {
    parentPort!.postMessage({ type: 'error', message: (e as Error).stack ?? String(e) });
  }
});
