// Worker thread of ParallelGradients (./parallel-grads.ts): its own tfjs backend and model replica;
// per step it receives the current parameters and its share of the batch, returns its gradients
// under the run's objective (micro-batching and rollout as the Trainer's own share).
import { parentPort } from 'node:worker_threads';
import * as tf from '../ops/tf';
import { selectBackend } from '../ops/backend';
import { createModel } from '../model/registry';
import type { NeuralOperator } from '../model/types';
import { shareGradients, type GradOptions } from './batch-grads';
import { errorMessage } from '../util/error-message';

export interface TrainInitMsg { type: 'train-init'; kind: string; config: unknown; backend?: string; grad: GradOptions }
export interface TrainStepMsg {
  type: 'train-step';
  params: Record<string, Float32Array>;
  x: Float32Array; xShape: number[]; y: Float32Array; yShape: number[];
  /** The whole batch's size (this share's terms are weighted by it). */
  batchSize: number;
}

let model: NeuralOperator | undefined;
let grad: GradOptions | undefined;

function assignParams(m: NeuralOperator, params: Record<string, Float32Array>): void {
  for (const [k, v] of m.variables) {
    const t = tf.tensor(params[k]!, v.shape, 'float32');
    v.assign(t);
    t.dispose();
  }
}

async function trainStep(msg: TrainStepMsg): Promise<void> {
  const m = model!;
  assignParams(m, msg.params);
  const n = msg.xShape[0]!;
  const xPer = msg.x.length / n, yPer = msg.y.length / n;
  const t0 = performance.now();
  const r = await shareGradients(m, n, msg.batchSize, (i, k) => ({
    x: tf.tensor(msg.x.subarray(i * xPer, (i + k) * xPer), [k, ...msg.xShape.slice(1)], 'float32'),
    y: tf.tensor(msg.y.subarray(i * yPer, (i + k) * yPer), [k, ...msg.yShape.slice(1)], 'float32'),
  }), grad!);
  const out: Record<string, Float32Array> = {};
  for (const [k, g] of r.grads) out[k] = (await g.data()) as Float32Array;
  tf.dispose([...r.grads.values()]);
  parentPort!.postMessage({ type: 'train-grads', loss: r.loss, relSum: r.relSum, grads: out, ms: performance.now() - t0 }, Object.values(out).map((a) => a.buffer as ArrayBuffer));
}

parentPort!.on('message', async (msg: TrainInitMsg | TrainStepMsg | { type: 'close' }) => {
  try {
    if (msg.type === 'train-init') {
      // the run's threads already split the cores between them: one each, whatever LINO_WASM_THREADS
      // asks (a worker thread's process.env is its own copy)
      process.env.LINO_WASM_THREADS = '1';
      const report = await selectBackend(msg.backend);
      model = createModel(msg.kind, msg.config);
      grad = msg.grad;
      parentPort!.postMessage({ type: 'ready', backend: report.active });
    } else if (msg.type === 'train-step') {
      await trainStep(msg);
    } else if (msg.type === 'close') {
      model?.dispose();
      parentPort!.close();
    }
  } catch (e) {
    // training runs show this as the run's reason: the message, not the stack
    parentPort!.postMessage({ type: 'error', message: errorMessage(e) });
  }
});
